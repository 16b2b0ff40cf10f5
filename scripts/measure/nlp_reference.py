"""Reference outputs of Python's NLTK (3.8, Debian's python3-nltk) and langdetect (1.0.9) for texts on stdin.

Reads JSON lines {"text": ...}; writes JSON lines {"lang", "punkt", "treebank"}: langdetect with seed 0, an
untrained PunktSentenceTokenizer given gym's English stand-in parameters (argv[1], a JSON file), and
NLTKWordTokenizer on each of gym's sentences. Run by nlp-agreement.ts; nothing of IFEval or IFBench runs here.
"""
import json
import sys

from langdetect import DetectorFactory, detect
from langdetect.lang_detect_exception import LangDetectException
from nltk.tokenize.destructive import NLTKWordTokenizer
from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

DetectorFactory.seed = 0
params_in = json.load(open(sys.argv[1]))
params = PunktParameters()
params.abbrev_types = set(params_in["abbreviations"])
for word in params_in["lowercase_context"]:
    params.ortho_context[word] = (1 << 5) | (1 << 1)
punkt = PunktSentenceTokenizer()
punkt._params = params
treebank = NLTKWordTokenizer()
for line in sys.stdin:
    row = json.loads(line)
    try:
        lang = detect(row["text"])
    except LangDetectException:
        lang = None
    print(json.dumps({"lang": lang, "punkt": punkt.tokenize(row["text"]), "treebank": [treebank.tokenize(s) for s in row["sentences"]]}))
