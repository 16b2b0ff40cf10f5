/** The n-gram profiles of the `langdetect` npm package (the Cybozu/Nakatani Shuyo profiles Python langdetect ships; 53 of its 55 languages). */

import af from "langdetect/profiles/af.json" with { type: "json" };
import ar from "langdetect/profiles/ar.json" with { type: "json" };
import bg from "langdetect/profiles/bg.json" with { type: "json" };
import bn from "langdetect/profiles/bn.json" with { type: "json" };
import cs from "langdetect/profiles/cs.json" with { type: "json" };
import da from "langdetect/profiles/da.json" with { type: "json" };
import de from "langdetect/profiles/de.json" with { type: "json" };
import el from "langdetect/profiles/el.json" with { type: "json" };
import en from "langdetect/profiles/en.json" with { type: "json" };
import es from "langdetect/profiles/es.json" with { type: "json" };
import et from "langdetect/profiles/et.json" with { type: "json" };
import fa from "langdetect/profiles/fa.json" with { type: "json" };
import fi from "langdetect/profiles/fi.json" with { type: "json" };
import fr from "langdetect/profiles/fr.json" with { type: "json" };
import gu from "langdetect/profiles/gu.json" with { type: "json" };
import he from "langdetect/profiles/he.json" with { type: "json" };
import hi from "langdetect/profiles/hi.json" with { type: "json" };
import hr from "langdetect/profiles/hr.json" with { type: "json" };
import hu from "langdetect/profiles/hu.json" with { type: "json" };
import id from "langdetect/profiles/id.json" with { type: "json" };
import it from "langdetect/profiles/it.json" with { type: "json" };
import ja from "langdetect/profiles/ja.json" with { type: "json" };
import kn from "langdetect/profiles/kn.json" with { type: "json" };
import ko from "langdetect/profiles/ko.json" with { type: "json" };
import lt from "langdetect/profiles/lt.json" with { type: "json" };
import lv from "langdetect/profiles/lv.json" with { type: "json" };
import mk from "langdetect/profiles/mk.json" with { type: "json" };
import ml from "langdetect/profiles/ml.json" with { type: "json" };
import mr from "langdetect/profiles/mr.json" with { type: "json" };
import ne from "langdetect/profiles/ne.json" with { type: "json" };
import nl from "langdetect/profiles/nl.json" with { type: "json" };
import no from "langdetect/profiles/no.json" with { type: "json" };
import pa from "langdetect/profiles/pa.json" with { type: "json" };
import pl from "langdetect/profiles/pl.json" with { type: "json" };
import pt from "langdetect/profiles/pt.json" with { type: "json" };
import ro from "langdetect/profiles/ro.json" with { type: "json" };
import ru from "langdetect/profiles/ru.json" with { type: "json" };
import sk from "langdetect/profiles/sk.json" with { type: "json" };
import sl from "langdetect/profiles/sl.json" with { type: "json" };
import so from "langdetect/profiles/so.json" with { type: "json" };
import sq from "langdetect/profiles/sq.json" with { type: "json" };
import sv from "langdetect/profiles/sv.json" with { type: "json" };
import sw from "langdetect/profiles/sw.json" with { type: "json" };
import ta from "langdetect/profiles/ta.json" with { type: "json" };
import te from "langdetect/profiles/te.json" with { type: "json" };
import th from "langdetect/profiles/th.json" with { type: "json" };
import tl from "langdetect/profiles/tl.json" with { type: "json" };
import tr from "langdetect/profiles/tr.json" with { type: "json" };
import uk from "langdetect/profiles/uk.json" with { type: "json" };
import ur from "langdetect/profiles/ur.json" with { type: "json" };
import vi from "langdetect/profiles/vi.json" with { type: "json" };
import zh_cn from "langdetect/profiles/zh-cn.json" with { type: "json" };
import zh_tw from "langdetect/profiles/zh-tw.json" with { type: "json" };

export interface LangProfile { name: string; freq: Record<string, number>; n_words: number[] }

export const PROFILES: Record<string, LangProfile> = {
  "af": af as LangProfile,
  "ar": ar as LangProfile,
  "bg": bg as LangProfile,
  "bn": bn as LangProfile,
  "cs": cs as LangProfile,
  "da": da as LangProfile,
  "de": de as LangProfile,
  "el": el as LangProfile,
  "en": en as LangProfile,
  "es": es as LangProfile,
  "et": et as LangProfile,
  "fa": fa as LangProfile,
  "fi": fi as LangProfile,
  "fr": fr as LangProfile,
  "gu": gu as LangProfile,
  "he": he as LangProfile,
  "hi": hi as LangProfile,
  "hr": hr as LangProfile,
  "hu": hu as LangProfile,
  "id": id as LangProfile,
  "it": it as LangProfile,
  "ja": ja as LangProfile,
  "kn": kn as LangProfile,
  "ko": ko as LangProfile,
  "lt": lt as LangProfile,
  "lv": lv as LangProfile,
  "mk": mk as LangProfile,
  "ml": ml as LangProfile,
  "mr": mr as LangProfile,
  "ne": ne as LangProfile,
  "nl": nl as LangProfile,
  "no": no as LangProfile,
  "pa": pa as LangProfile,
  "pl": pl as LangProfile,
  "pt": pt as LangProfile,
  "ro": ro as LangProfile,
  "ru": ru as LangProfile,
  "sk": sk as LangProfile,
  "sl": sl as LangProfile,
  "so": so as LangProfile,
  "sq": sq as LangProfile,
  "sv": sv as LangProfile,
  "sw": sw as LangProfile,
  "ta": ta as LangProfile,
  "te": te as LangProfile,
  "th": th as LangProfile,
  "tl": tl as LangProfile,
  "tr": tr as LangProfile,
  "uk": uk as LangProfile,
  "ur": ur as LangProfile,
  "vi": vi as LangProfile,
  "zh-cn": zh_cn as LangProfile,
  "zh-tw": zh_tw as LangProfile,
};
