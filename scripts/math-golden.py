#!/usr/bin/env python3
"""Golden verdicts for the math_with_judge port: answer pairs labelled by the real math-verify 0.8.0.

    PYTHONPATH=<Math-Verify>/src:<latex2sympy2_extended>/src python3 scripts/math-golden.py \
        [--out fixtures/math/golden.jsonl] [--limit N]

Generates the pairs (deterministically, from the tables below: every answer kind, several ways a model
writes an answer, equivalent rewrites and near misses) and labels each one the way NeMo Gym's
math_with_judge calls the library: gold = "\\boxed{" + expected answer with outer \\( \\) / $ $ stripped
+ "}", parsed with LatexExtractionConfig; prediction parsed with ExprExtractionConfig then
LatexExtractionConfig; math_metric's verify(gold, pred, float_rounding=6); the extracted answer is the
first prediction that verifies against a gold, else the first prediction (str() of SymPy's object);
every pair in a forked child killed after 10 s (reward 0, extracted None), as NeMo Gym does.
`--label-only FILE` labels an existing file of {expected_answer, response_text} rows instead.
"""

import argparse
import json
import multiprocessing as mp
import os
import sys
import time

STYLES = [
    "boxed", "answer_is", "think_boxed", "final_answer_hope", "dollar_end", "bold_answer",
    "display_boxed", "paren_inline", "two_boxes", "truncated_boxed", "answer_colon_plain", "plain_last",
]


def render(style: str, ans: str, plain: str, other: str) -> str:
    """One way a model writes `ans` (LaTeX) — `plain` is a plain-text spelling, `other` a distractor."""
    if style == "boxed":
        return f"We simplify step by step and obtain the result.\n\nTherefore the answer is $\\boxed{{{ans}}}$."
    if style == "answer_is":
        return f"Working through the computation carefully, the answer is ${ans}$."
    if style == "think_boxed":
        return (f"<think>\nLet me try {other} first. Hmm, that does not satisfy the condition. "
                f"Trying again gives {plain}.\n</think>\n\nThe value is \\boxed{{{ans}}}.")
    if style == "final_answer_hope":
        return f"Combining the cases.\n\nFinal Answer: The final answer is ${ans}$. I hope it is correct."
    if style == "dollar_end":
        return f"After simplifying we get ${other}$ for the first part, and finally ${ans}$"
    if style == "bold_answer":
        return f"**Step 1.** Set up the equation.\n**Step 2.** Solve it.\n\n**Answer:** {plain}"
    if style == "display_boxed":
        return f"Putting everything together:\n\\[\n\\boxed{{{ans}}}\n\\]"
    if style == "paren_inline":
        return f"So the required quantity equals \\({ans}\\)."
    if style == "two_boxes":
        return f"First I got $\\boxed{{{other}}}$, but that was a mistake. Correcting it, the answer is $\\boxed{{{ans}}}$."
    if style == "truncated_boxed":
        return f"The computation shows that the result is \\boxed{{{ans}"
    if style == "answer_colon_plain":
        return f"Answer: {plain}"
    if style == "plain_last":
        return f"Let me compute. We have {other} apples at first, so the total is {plain}"
    raise ValueError(style)


# kind -> list of (expected_answer, [(candidate latex, candidate plain text or None)])
# Candidates mix equivalent rewrites and near misses; the library decides which is which.
def C(*items):
    return [(i, None) if isinstance(i, str) else i for i in items]


TABLE = {
    "integer": [
        ("42", C("42", "042", "42.0", ("\\text{42}", "42"), "43", "-42", "4.2", ("42\\text{ apples}", "42 apples"), "\\frac{84}{2}", "41.999999", "42.0000001")),
        ("1000", C("1000", ("1{,}000", "1,000"), ("1,000", "1,000"), ("1\\,000", "1 000"), "10^3", "1000.5", "999", "100", "1e3", ("10^{3}", "10**3"))),
        ("-7", C("-7", "- 7", "7", "(-7)", "-7.0", "-\\frac{14}{2}", "-8", ("−7", "−7"))),
        ("0", C("0", "0.0", "-0", "00", "1", "\\emptyset", "o")),
        ("2024", C("2024", "2,024", "2023", "2024.0", "2\\,024", "2025", "20.24")),
        ("113", C("113", "\\mathbf{113}", "\\textbf{113}", "131", "113.00", "\\boxed{113}", "1 1 3")),
        ("360", C("360", "360^\\circ", "360^{\\circ}", "2\\pi", "361", "\\text{360 degrees}", "360 \\text{ degrees}")),
        ("9", C("9", "3^2", "\\sqrt{81}", "8.9999999", "9.0001", "x = 9", "n=9", "\\{9\\}", "(9)", "[9]")),
        ("125", C("125", "5^3", "125.000000", "\\dfrac{250}{2}", "126", "\\$125", ("125\\text{ dollars}", "125 dollars"), "12.5", "125\\%")),
        ("17", C("17", "\\mathrm{17}", "17 \\text{ cm}", "17\\,\\text{cm}", "17 cm", "17m", "17^{\\circ}", "71", "1.7\\times 10", "17 \\pm 1")),
    ],
    "fraction": [
        ("\\frac{3}{4}", C("\\frac{3}{4}", "\\dfrac{3}{4}", "\\tfrac34", "\\frac34", ("3/4", "3/4"), "0.75", ".75", "\\frac{6}{8}", "\\frac{4}{3}", "0.74", "75\\%", "\\frac{3}{5}", "{3 \\over 4}", "\\left(\\frac{3}{4}\\right)")),
        ("\\frac{1}{3}", C("\\frac{1}{3}", "0.333333", "0.3333333333", "0.33", "0.\\overline{3}", ("1/3", "1/3"), "\\frac{2}{6}", "\\frac{1}{4}", "0.333", "3^{-1}", "\\frac{-1}{-3}")),
        ("\\frac{83}{499}", C("\\frac{83}{499}", "\\frac{166}{998}", "\\frac{333}{1997}", "0.166333", "0.1663326653", ("83/499", "83/499"), "\\frac{84}{499}")),
        ("-\\frac{5}{2}", C("-\\frac{5}{2}", "\\frac{-5}{2}", "\\frac{5}{-2}", "-2.5", ("-5/2", "-5/2"), "\\frac{5}{2}", "-2\\frac{1}{2}", "-2.50", "-\\dfrac52")),
        ("\\frac{7}{2}", C("\\frac{7}{2}", "3.5", "3\\frac{1}{2}", "3 \\frac{1}{2}", ("7/2", "7/2"), "\\frac{2}{7}", "3.49", "\\frac{14}{4}")),
        ("\\dfrac{11}{36}", C("\\frac{11}{36}", "0.305556", "0.3055555", "0.31", "\\frac{11}{35}", "\\dfrac{22}{72}", ("11/36", "11/36"))),
        ("\\tfrac{1}{2}", C("\\frac12", "0.5", "50\\%", "\\frac{1}{2}", "1/2", "2^{-1}", "\\frac{1}{3}", "0.50", "\\sin 30^\\circ", "\\cos\\frac{\\pi}{3}")),
    ],
    "radical": [
        ("2\\sqrt{3}", C("2\\sqrt{3}", "\\sqrt{12}", "2 \\sqrt 3", "2\\sqrt3", "\\sqrt{3} \\cdot 2", "3.464102", "3.4641016", "3.46", "\\sqrt{3}", "3\\sqrt{2}", ("2*sqrt(3)", "2*sqrt(3)"), "\\frac{6}{\\sqrt{3}}", "\\sqrt{3}+\\sqrt{3}")),
        ("\\sqrt{2}", C("\\sqrt{2}", "\\sqrt2", "2^{1/2}", "2^{\\frac{1}{2}}", "1.414214", "1.41421356", "1.414", "\\frac{2}{\\sqrt{2}}", "\\sqrt{3}", "\\frac{\\sqrt{2}}{2}", "\\sqrt[2]{2}")),
        ("\\frac{\\sqrt{3}}{2}", C("\\frac{\\sqrt{3}}{2}", "\\frac{1}{2}\\sqrt{3}", "\\frac{\\sqrt3}2", "0.866025", "0.8660254", "\\frac{3}{2\\sqrt{3}}", "\\frac{\\sqrt{2}}{2}", "\\sin 60^\\circ", "\\sin\\frac{\\pi}{3}", "\\cos 30^\\circ", "\\frac{\\sqrt{3}}{3}")),
        ("3+2\\sqrt{2}", C("3+2\\sqrt{2}", "2\\sqrt{2}+3", "(1+\\sqrt{2})^2", "3 + 2 \\sqrt 2", "5.828427", "3-2\\sqrt{2}", "3+\\sqrt{8}", "3+2\\sqrt{3}")),
        ("\\sqrt[3]{2}", C("\\sqrt[3]{2}", "2^{1/3}", "1.259921", "\\sqrt{2}", "2^{\\frac13}", "1.26")),
        ("5\\sqrt{5}", C("5\\sqrt{5}", "\\sqrt{125}", "11.18034", "11.180340", "5^{3/2}", "5\\sqrt{3}", "25")),
    ],
    "pi": [
        ("2\\pi", C("2\\pi", "2 \\pi", "\\pi \\cdot 2", "6.283185", "6.28", "\\pi", "4\\pi", "360^\\circ", "\\frac{4\\pi}{2}", "2\\pi\\text{ units}", ("2pi", "2pi"), "2\\times\\pi")),
        ("\\frac{\\pi}{4}", C("\\frac{\\pi}{4}", "\\frac{1}{4}\\pi", "0.785398", "45^\\circ", "\\frac{\\pi}{2}", "\\pi/4", "0.25\\pi", "\\dfrac{\\pi}4", "\\arctan 1")),
        ("16\\pi", C("16\\pi", "16 \\pi", "50.265482", "50.27", "8\\pi", "16\\pi \\text{ cm}^2", "16\\pi\\text{ square units}", "\\pi 16", "(4)^2\\pi")),
        ("\\pi - 2", C("\\pi - 2", "-2+\\pi", "1.141593", "2 - \\pi", "\\pi-3", "\\pi + (-2)")),
        ("\\frac{9\\pi}{2}", C("\\frac{9\\pi}{2}", "4.5\\pi", "\\frac{9}{2}\\pi", "14.137167", "\\frac{9\\pi}{4}", "\\frac92\\pi")),
    ],
    "log": [
        ("3", C("\\log_2 8", "\\log_{2}8", "\\log_2{8}", "\\ln e^3", "3", "\\log 1000", "\\log_3 8", "\\frac{\\ln 8}{\\ln 2}")),
        ("\\ln 2", C("\\ln 2", "\\ln(2)", "\\log 2", "\\log_e 2", "0.693147", "0.69", "\\ln 3", "\\log_2 e", "-\\ln\\frac{1}{2}", "\\ln 4 - \\ln 2")),
        ("\\log_2 3", C("\\log_2 3", "\\frac{\\ln 3}{\\ln 2}", "1.584963", "\\log_3 2", "\\frac{\\log 3}{\\log 2}", "\\log_{2}{3}")),
        ("e^2", C("e^2", "e^{2}", "\\exp(2)", "7.389056", "2e", "e^3", "\\mathrm{e}^2", "\\exp 2")),
        ("2\\ln 2", C("\\ln 4", "2\\ln 2", "1.386294", "\\ln 2", "\\ln 2^2", "\\log 4")),
    ],
    "trig": [
        ("\\frac{1}{2}", C("\\sin 30^\\circ", "\\sin(30^\\circ)", "\\cos 60^\\circ", "\\sin\\frac{\\pi}{6}", "\\cos\\left(\\frac{\\pi}{3}\\right)", "\\sin 30", "0.5", "\\frac{\\sqrt{3}}{2}")),
        ("1", C("\\tan 45^\\circ", "\\tan\\frac{\\pi}{4}", "\\sin^2 x + \\cos^2 x", "\\sin^2 \\theta + \\cos^2 \\theta", "\\tan 45", "1", "\\cot 45^\\circ", "\\sec 0")),
        ("\\sin 2x", C("2\\sin x\\cos x", "\\sin 2x", "\\sin(2x)", "2\\sin x", "\\cos 2x", "2 \\cos x \\sin x", "\\sin x \\cos x")),
        ("\\cos^2 x - \\sin^2 x", C("\\cos 2x", "2\\cos^2 x - 1", "1 - 2\\sin^2 x", "\\cos^2 x - \\sin^2 x", "\\cos^2 x + \\sin^2 x", "\\sin 2x")),
        ("\\cot x", C("\\cot x", "\\cotx", "\\frac{\\cos x}{\\sin x}", "\\frac{1}{\\tan x}", "\\tan x", "\\cot(x)")),
        ("-\\frac{\\sqrt{2}}{2}", C("-\\frac{\\sqrt{2}}{2}", "\\cos 135^\\circ", "\\cos\\frac{3\\pi}{4}", "-0.707107", "\\frac{\\sqrt{2}}{2}", "-\\frac{1}{\\sqrt{2}}", "\\sin(-45^\\circ)")),
        ("\\frac{\\pi}{6}", C("\\arcsin\\frac{1}{2}", "\\frac{\\pi}{6}", "30^\\circ", "0.523599", "\\arccos \\frac{\\sqrt{3}}{2}", "\\frac{\\pi}{3}", "\\sin^{-1}(1/2)")),
    ],
    "complex": [
        ("3+4i", C("3+4i", "4i+3", "3 + 4 i", "3+4\\mathrm{i}", "3-4i", "3+4j", "(3+4i)", "\\sqrt{-16}+3", "4+3i", "3 + 4\\sqrt{-1}", "3+4\\cdot i")),
        ("i", C("i", "\\sqrt{-1}", "-i", "i^5", "\\mathrm{i}", "1", "e^{i\\pi/2}")),
        ("1-i", C("1-i", "-i+1", "1 - i", "1+i", "\\frac{2}{1+i}", "(1-i)", "i-1")),
        ("-2+2i", C("-2+2i", "2i-2", "-2 + 2 i", "2 - 2i", "-2-2i", "2(-1+i)", "(1+i)^3")),
        ("\\frac{1}{2}+\\frac{\\sqrt{3}}{2}i", C("\\frac{1}{2}+\\frac{\\sqrt{3}}{2}i", "\\frac{1+i\\sqrt{3}}{2}", "e^{i\\pi/3}", "\\frac{1}{2}-\\frac{\\sqrt{3}}{2}i", "0.5+0.866025i", "\\cos\\frac{\\pi}{3}+i\\sin\\frac{\\pi}{3}")),
        ("5", C("|3+4i|", "\\left|3+4i\\right|", "5", "\\sqrt{3^2+4^2}", "-5", "5i")),
    ],
    "percent": [
        ("25\\%", C("25\\%", "25", "0.25", "25 \\%", "25 percent", ("25%", "25%"), "\\frac{1}{4}", "26\\%", "2.5\\%", "25.0\\%", ("25 percent", "25 percent"), "250\\%")),
        ("12.5", C("12.5\\%", "12.5", "\\frac{25}{2}", "0.125", "12.5 \\text{ percent}", "12.50", "12", "13.5", ("12.5%", "12.5%"))),
        ("0.4", C("40\\%", "0.4", "\\frac{2}{5}", "0.40", "4", "40", ("40%", "40%"), ".4", "0.04")),
        ("60\\%", C("60\\%", "60", "0.6", "\\frac{3}{5}", "60 \\%", "6\\%", "600\\%", ("60 pct", "60 pct"), "\\text{60 percent}")),
    ],
    "degree": [
        ("45^\\circ", C("45^\\circ", "45", "45^{\\circ}", "45 \\text{ degrees}", "45\\text{°}", "45°", "\\frac{\\pi}{4}", "46^\\circ", "45 \\deg", "135^\\circ", ("45 degrees", "45 degrees"))),
        ("120", C("120^\\circ", "120", "120^{\\circ}", "\\frac{2\\pi}{3}", "60^\\circ", "120.0^\\circ", "120 \\text{ degrees}", "120°")),
        ("30^{\\circ}", C("30", "30^\\circ", "30^{\\circ}", "\\frac{\\pi}{6}", "150^\\circ", "30\\,^\\circ", "30 ^\\circ", "-30^\\circ")),
    ],
    "unit_text": [
        ("5", C("5 \\text{ cm}", "5\\text{cm}", "5 \\mbox{ cm}", "5\\,\\mathrm{cm}", "5 \\text{ meters}", "5 m", "5 \\text{m}^2", "5 \\text{ cm}^2", "\\text{5 cm}", "6 \\text{ cm}", "5 \\text{ hours}", "5\\text{ units}", "5\\text{ feet}", "5 \\text{ inches}")),
        ("\\$18.90", C("\\$18.90", "18.90", "18.9", "\\$18.9", "18.90 \\text{ dollars}", "\\$19", "\\$18.09", ("$18.90", "$18.90"), "\\$ 18.90", "1890 \\text{ cents}")),
        ("\\text{Monday}", C("\\text{Monday}", "Monday", "\\text{monday}", "\\text{Tuesday}", "\\mathrm{Monday}", "\\textbf{Monday}", "\\text{ Monday }")),
        ("\\text{even}", C("\\text{even}", "even", "\\text{odd}", "\\text{Even}", "\\textit{even}", "\\text{neither}")),
        ("10 \\text{ inches}", C("10", "10 \\text{ inches}", "10\\text{ in}", "10 \\text{ inch}", "10''", "11 \\text{ inches}", "10.0")),
        ("7 \\text{ hours}", C("7", "7 \\text{ hours}", "7\\text{ hr}", "420 \\text{ minutes}", "7 h", "8 hours")),
    ],
    "interval": [
        ("(1, 2]", C("(1, 2]", "(1,2]", "\\left(1, 2\\right]", "[1, 2]", "(1, 2)", "1 < x \\leq 2", "x \\in (1, 2]", "(1,2.0]", "(2, 1]")),
        ("[0,\\infty)", C("[0,\\infty)", "[0, \\infty)", "[0,+\\infty)", "x \\geq 0", "(0, \\infty)", "[0,\\infty]", "\\left[0,\\infty\\right)", "[0,\\infty)\\text{.}", "x\\ge 0")),
        ("(-\\infty, 3) \\cup (4, \\infty)", C("(-\\infty, 3) \\cup (4, \\infty)", "(-\\infty,3)\\cup(4,\\infty)", "(4, \\infty) \\cup (-\\infty, 3)", "(-\\infty, 3] \\cup [4, \\infty)", "(-\\infty, 4) \\cup (3, \\infty)", "x < 3 \\text{ or } x > 4", "\\mathbb{R} \\setminus [3,4]")),
        ("(-2, 5)", C("(-2, 5)", "(-2,5)", "-2 < x < 5", "\\{-2, 5\\}", "[-2, 5)", "(-5, 2)", "(5, -2)", "x \\in (-2,5)")),
        ("[-1, 1]", C("[-1, 1]", "[-1,1]", "-1 \\le x \\le 1", "(-1, 1)", "\\left[-1,1\\right]", "|x| \\le 1", "[-1, 1)")),
    ],
    "set": [
        ("\\{1, 2, 3\\}", C("\\{1, 2, 3\\}", "\\{3, 2, 1\\}", "1, 2, 3", "1,2,3", "\\{1,2\\}", "\\{1, 2, 3, 4\\}", "\\left\\{1,2,3\\right\\}", "1, 2, \\text{ and } 3", "\\{1, 2, 4\\}", "3, 1, 2")),
        ("-1, 5", C("-1, 5", "5, -1", "\\{-1, 5\\}", "x = -1, 5", "x=-1 \\text{ or } x=5", "x = 5, x = -1", "-1 \\text{ and } 5", "-1", "1, -5", "(-1, 5)")),
        ("\\{-2, 0, 2\\}", C("\\{-2,0,2\\}", "0, \\pm 2", "\\pm 2, 0", "-2, 0, 2", "\\{0, 2\\}", "\\{-2, 2\\}", "2, 0, -2")),
        ("\\pm 3", C("\\pm 3", "3, -3", "-3, 3", "\\{3, -3\\}", "x = \\pm 3", "3", "\\pm 9", "\\pm\\sqrt{9}")),
        ("\\emptyset", C("\\emptyset", "\\varnothing", "\\{\\}", "\\text{no solution}", "0", "\\{0\\}")),
        ("\\frac{1}{2}, 3", C("\\frac12, 3", "3, \\frac{1}{2}", "0.5, 3", "\\left\\{\\frac{1}{2}, 3\\right\\}", "3, 0.5", "\\frac{1}{2}", "2, 3")),
    ],
    "tuple": [
        ("(1, 2)", C("(1, 2)", "(1,2)", "\\left(1, 2\\right)", "(2, 1)", "1, 2", "(1, 2, 3)", "x=1, y=2", "(1.0, 2.0)", "\\{1, 2\\}", "[1, 2]")),
        ("(5,-1)", C("(5,-1)", "\\{5,-1\\}", "(-1, 5)", "(5, -1)", "(5,1)", "x = 5, y = -1", "\\left(5, -1\\right)")),
        ("(3, \\frac{\\pi}{2})", C("(3, \\frac{\\pi}{2})", "\\left(3, \\frac{\\pi}{2}\\right)", "(3, 1.570796)", "(3, \\pi)", "(\\frac{\\pi}{2}, 3)", "(3, 90^\\circ)")),
        ("(0, -3, 4)", C("(0, -3, 4)", "(0,-3,4)", "(0, 3, 4)", "(4, -3, 0)", "\\begin{pmatrix} 0 \\\\ -3 \\\\ 4 \\end{pmatrix}", "(0, -3)")),
        ("(-\\frac{1}{2}, \\frac{3}{2})", C("(-\\frac12, \\frac32)", "(-0.5, 1.5)", "\\left(-\\frac{1}{2},\\frac{3}{2}\\right)", "(\\frac{3}{2}, -\\frac{1}{2})", "(-\\frac{1}{2}, \\frac{2}{3})")),
    ],
    "equation": [
        ("x=5", C("x=5", "x = 5", "5", "5 = x", "y=5", "x=6", "x = \\frac{10}{2}", "x_1 = 5", "X=5")),
        ("y = 2x + 1", C("y = 2x + 1", "y=1+2x", "2x + 1", "y - 2x = 1", "y = 2x - 1", "y=2x+1.0", "y = x + 1", "f(x) = 2x + 1")),
        ("x^2 + y^2 = 25", C("x^2 + y^2 = 25", "y^2 + x^2 = 25", "x^2+y^2-25=0", "x^2 + y^2 = 5^2", "x^2 + y^2 = 5", "25 = x^2 + y^2", "x^2 - y^2 = 25")),
        ("k = 3", C("k = 3", "k=3", "3", "k = 3.0", "k = -3", "k = 4", "m = 3")),
        ("a = 2, b = 3", C("a = 2, b = 3", "a=2,b=3", "b = 3, a = 2", "(2, 3)", "2, 3", "a = 3, b = 2", "a=2, b=4")),
        ("2x - 3y = 6", C("2x - 3y = 6", "-3y + 2x = 6", "4x - 6y = 12", "y = \\frac{2}{3}x - 2", "2x + 3y = 6", "2x-3y-6=0")),
    ],
    "inequality": [
        ("x > 3", C("x > 3", "x>3", "3 < x", "(3, \\infty)", "x \\geq 3", "x < 3", "x > 4", "x>3.0", "y > 3")),
        ("x \\le -2", C("x \\le -2", "x \\leq -2", "-2 \\geq x", "(-\\infty, -2]", "x < -2", "x \\leq 2", "x\\le-2")),
        ("1 < x < 2", C("1 < x < 2", "(1, 2)", "x > 1, x < 2", "2 > x > 1", "1 \\le x \\le 2", "1 < x < 3", "x \\in (1,2)")),
        ("t \\geq 10", C("t \\geq 10", "t \\ge 10", "10 \\leq t", "[10, \\infty)", "t > 10", "t \\geq 1")),
    ],
    "matrix": [
        ("\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}", C("\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}", "\\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}", "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}", "\\begin{pmatrix} 1 & 3 \\\\ 2 & 4 \\end{pmatrix}", "\\begin{pmatrix} 1.0 & 2.0 \\\\ 3.0 & 4.0 \\end{pmatrix}", "\\left[\\begin{matrix} 1 & 2 \\\\ 3 & 4 \\end{matrix}\\right]", "\\begin{pmatrix} 1 & 2 \\\\ 3 & 5 \\end{pmatrix}")),
        ("\\begin{pmatrix} 2 \\\\ -1 \\end{pmatrix}", C("\\begin{pmatrix} 2 \\\\ -1 \\end{pmatrix}", "\\begin{pmatrix}2\\\\-1\\end{pmatrix}", "\\begin{bmatrix} 2 \\\\ -1 \\end{bmatrix}", "(2, -1)", "\\begin{pmatrix} -1 \\\\ 2 \\end{pmatrix}", "\\begin{pmatrix} 2 & -1 \\end{pmatrix}", "\\begin{pmatrix} 4/2 \\\\ -1 \\end{pmatrix}")),
        ("\\begin{pmatrix} \\frac{1}{2} & 0 \\\\ 0 & 1 \\end{pmatrix}", C("\\begin{pmatrix} \\frac{1}{2} & 0 \\\\ 0 & 1 \\end{pmatrix}", "\\begin{pmatrix} 0.5 & 0 \\\\ 0 & 1 \\end{pmatrix}", "\\begin{pmatrix} 1/2 & 0 \\\\ 0 & 1 \\end{pmatrix}", "\\begin{pmatrix} 2 & 0 \\\\ 0 & 1 \\end{pmatrix}", "\\begin{pmatrix} \\frac12 & 0 \\\\ 0 & 1 \\end{pmatrix}")),
    ],
    "polynomial": [
        ("x^2+2x+1", C("x^2+2x+1", "(x+1)^2", "1+2x+x^2", "x^2 + 2x + 1", "x^2+1", "(x-1)^2", "x^{2}+2x+1", "(x+1)(x+1)", "x^2+2x")),
        ("(x-2)(x+3)", C("(x-2)(x+3)", "x^2+x-6", "(x+3)(x-2)", "x^2-x-6", "(x+2)(x-3)", "x^2 + x - 6", "(x-2)\\cdot(x+3)")),
        ("3x^3 - 2x", C("3x^3-2x", "x(3x^2-2)", "-2x+3x^3", "3x^3+2x", "3x^2-2", "3x^3 - 2x + 0", "3 x^3 - 2 x")),
        ("\\frac{x+1}{x-1}", C("\\frac{x+1}{x-1}", "\\frac{1+x}{x-1}", "\\frac{x+1}{1-x}", "\\frac{-x-1}{1-x}", "(x+1)/(x-1)", "1 + \\frac{2}{x-1}", "\\frac{x-1}{x+1}")),
        ("a^2 - b^2", C("a^2-b^2", "(a-b)(a+b)", "(a+b)(a-b)", "-b^2+a^2", "a^2+b^2", "(a-b)^2", "b^2-a^2")),
        ("2n+1", C("2n+1", "1+2n", "2 n + 1", "2n-1", "n+n+1", "2(n+1)", "2k+1")),
    ],
    "scientific": [
        ("3 \\times 10^{5}", C("3 \\times 10^{5}", "300000", "300,000", "3 \\times 10^5", "3\\cdot 10^{5}", "3e5", "3.0 \\times 10^5", "3 \\times 10^{6}", "30000", "3E5", "3.0e5", "300{,}000")),
        ("6.02 \\times 10^{23}", C("6.02 \\times 10^{23}", "6.02\\times10^{23}", "602000000000000000000000", "6.02e23", "6.2 \\times 10^{23}", "6.02 \\times 10^{22}", "6.02 \\cdot 10^{23}")),
        ("1.5 \\times 10^{-3}", C("1.5 \\times 10^{-3}", "0.0015", "1.5e-3", "\\frac{3}{2000}", "1.5 \\times 10^{3}", "0.015", "15 \\times 10^{-4}")),
        ("2.5", C("2.5", "2.50", "2.500000", "2.5000001", "2.4999999", "2.51", "\\frac{5}{2}", "25 \\times 10^{-1}", "2,5")),
        ("0.000001", C("0.000001", "10^{-6}", "1e-6", "0.0000012", "0.0000014", "0.0000004", "0", "1\\times10^{-6}")),
    ],
    "choice": [
        ("A", C("A", "\\text{A}", "\\text{(A)}", "(A)", "\\textbf{(A)}", "B", "\\mathrm{A}", "a", "\\text{(B)}", ("A", "A"), ("(A)", "(A)"), "\\text{A. } 5")),
        ("C", C("C", "\\text{(C)}", "(C)", "\\textbf{C}", "D", "\\text{C}", ("C", "C"), "c", "\\mathrm{(C)}", ("The answer is C", "The answer is C"))),
        ("\\text{(D)}", C("D", "\\text{(D)}", "(D)", "\\text{D}", "\\text{(E)}", "E", "\\textbf{(D)}\\ 12")),
        ("B", C("\\mathbf{B}", "B", "\\textbf{B}", "\\text{B.}", "b", "A", "\\text{Option B}")),
    ],
}


def spice(rng_index: int, plain_of: str) -> str:
    return plain_of


def distractor(kind: str, i: int) -> str:
    return ["7", "12", "\\frac{1}{5}", "2", "x=3", "100", "-1", "\\sqrt{5}"][i % 8]


def plain_text(latex: str) -> str:
    s = latex
    for a, b in [("\\dfrac", "\\frac"), ("\\tfrac", "\\frac"), ("\\left", ""), ("\\right", ""), ("\\,", ""), ("{,}", ",")]:
        s = s.replace(a, b)
    return s


def generated_pairs():
    """Pairs from the table (each candidate in 4-6 styles) plus arithmetic families (integers, fractions)."""
    rows = []
    n = 0
    for kind, entries in TABLE.items():
        for gi, (gold, cands) in enumerate(entries):
            for ci, (cand, plain) in enumerate(cands):
                ptxt = plain if plain is not None else plain_text(cand)
                # every candidate in a rotating window of styles (deterministic)
                nstyles = 3
                for k in range(nstyles):
                    style = STYLES[(gi * 7 + ci * 3 + k * 5) % len(STYLES)]
                    other = distractor(kind, gi + ci + k)
                    text = render(style, cand, ptxt, other)
                    rows.append({"id": f"{kind}-{gi}-{ci}-{style}", "kind": kind, "style": style,
                                 "expected_answer": gold, "response_text": text})
                    n += 1
    # arithmetic families: integer answers (AIME/GSM8K style) and fractions, written several ways
    import random
    rng = random.Random(20250701)
    for j in range(220):
        v = rng.randint(0, 999) if j % 3 else rng.randint(1000, 99999)
        gold = str(v)
        cand_kind = j % 11
        if cand_kind == 0:
            cand = str(v)
        elif cand_kind == 1:
            cand = f"{v:,}"
        elif cand_kind == 2:
            cand = str(v + rng.choice([-1, 1, 10]))
        elif cand_kind == 3:
            cand = f"{v}.0"
        elif cand_kind == 4:
            cand = f"\\frac{{{2 * v}}}{{2}}"
        elif cand_kind == 5:
            cand = f"{v} \\text{{ ways}}"
        elif cand_kind == 6:
            cand = f"0{v}" if v < 100 else f"{v}"
        elif cand_kind == 7:
            cand = str(v)[::-1] if v > 9 else str(v + 2)
        elif cand_kind == 8:
            cand = f"{v / 10}"
        elif cand_kind == 9:
            cand = f"\\${v}"
        else:
            cand = f"n = {v}"
        style = STYLES[j % len(STYLES)]
        gold_w = ["{}", "\\({}\\)", "${}$", " {} "][j % 4].format(gold)
        rows.append({"id": f"int-family-{j}", "kind": "integer", "style": style, "expected_answer": gold_w,
                     "response_text": render(style, cand, plain_text(cand), str(rng.randint(1, 50)))})
    for j in range(160):
        p, q = rng.randint(1, 40), rng.randint(2, 41)
        gold = f"\\frac{{{p}}}{{{q}}}"
        ck = j % 8
        if ck == 0:
            cand = gold
        elif ck == 1:
            cand = f"{p}/{q}"
        elif ck == 2:
            cand = f"{p / q:.6f}"
        elif ck == 3:
            cand = f"{p / q:.3f}"
        elif ck == 4:
            cand = f"\\frac{{{2 * p}}}{{{2 * q}}}"
        elif ck == 5:
            cand = f"\\frac{{{q}}}{{{p}}}"
        elif ck == 6:
            cand = f"\\dfrac{{{p}}}{{{q + 1}}}"
        else:
            cand = f"{p / q:.10f}"
        style = STYLES[(j * 5) % len(STYLES)]
        rows.append({"id": f"frac-family-{j}", "kind": "fraction", "style": style, "expected_answer": gold,
                     "response_text": render(style, cand, plain_text(cand), "3")})
    # model writing quirks with a fixed gold
    extras = [
        ("12", "The answer is 12."), ("12", "The answer is: 12"), ("12", "the final answer is 12"),
        ("12", "So there are $12$ ways.\n\nAnswer: 12 ways"), ("12", "<think>I think it is 13</think>"),
        ("12", "<think>\nlong reasoning ... 12 ... \n"), ("12", "The answer is \\boxed{12"), ("12", ""),
        ("12", "\\boxed{12}\\boxed{13}"), ("12", "\\boxed{13} \\boxed{12}"), ("12", "\\boxed{12} and \\boxed{13}"),
        ("12", "I could not solve this."), ("12", "12 = 3 \\cdot 4"), ("12", "$3 \\cdot 4 = 12$"),
        ("12", "The total is 3 + 9 = 12"), ("12", "The total is 3 + 9 = 13"), ("12", "\\fbox{12}"),
        ("12", "Final Answer: The final answer is 12. I hope it is correct."), ("12", "**12**"),
        ("12", "The answer is **12**."), ("12", "$$12$$"), ("12", "\\[12\\]"), ("12", "\\(12\\)"),
        ("12", "answer = 12"), ("12", "So, $x = 12$."), ("12", "x = 12 cm"), ("12", "twelve"),
        ("12", "\\boxed{\\text{12}}"), ("12", "\\boxed{ 12 }"), ("12", "\\boxed {12}"), ("12", "1 2"),
        ("\\frac{1}{2}", "The probability is $\\frac{1}{2}$, i.e. 50%."), ("\\frac{1}{2}", "1/2"),
        ("\\frac{1}{2}", "The answer is 1/2."), ("\\frac{1}{2}", "The answer is 0.5"), ("\\frac{1}{2}", "50%"),
        ("\\frac{1}{2}", "The answer is $\\boxed{\\dfrac{1}{2}}$"), ("\\frac{1}{2}", "$\\frac12$"),
        ("\\frac{1}{2}", "answer: 1 / 2"), ("\\frac{1}{2}", "\\boxed{\\frac{1}{2}} \\text{ or } \\boxed{0.5}"),
        ("\\sqrt{2}", "sqrt(2)"), ("\\sqrt{2}", "The answer is sqrt 2"), ("\\sqrt{2}", "$\\boxed{\\sqrt 2}$"),
        ("\\sqrt{2}", "2^(1/2)"), ("\\sqrt{2}", "1.4142135623730951"), ("\\sqrt{2}", "≈1.414"),
        ("x^2+1", "x**2 + 1"), ("x^2+1", "The polynomial is $x^2 + 1$."), ("x^2+1", "x^2 + 1"),
        ("3", "3 (since 1+2=3)"), ("3", "1+2"), ("3", "(1+2)"), ("3", "6/2"), ("3", "The answer is 6/2."),
        ("3", "3.0000000000001"), ("3", "2.9999999"), ("3", "3.00001"), ("3", "$3$$4$"), ("3", "3, 4"),
        ("3", "\\boxed{3}."), ("3", "\\boxed{3}\\text{.}"), ("3", "\\boxed{\\textbf{3}}"), ("3", "\\boxed{3\\%}"),
        ("1000000", "1,000,000"), ("1000000", "1 000 000"), ("1000000", "10^6"), ("1000000", "1e6"),
        ("1000000", "1,000,001"), ("1000000", "\\$1,000,000"), ("1000000", "one million"),
    ]
    for j, (g, t) in enumerate(extras):
        rows.append({"id": f"quirk-{j}", "kind": "style", "style": "quirk", "expected_answer": g, "response_text": t})
    return rows


# ---------------------------------------------------------------- labelling, as NeMo Gym calls it

def _strip_math_delimiters(s: str) -> str:
    s = s.strip()
    if s.startswith("\\(") and s.endswith("\\)"):
        s = s[2:-2].strip()
    if s.startswith("$") and s.endswith("$") and len(s) > 1:
        s = s[1:-1].strip()
    return s


def _label_in_child(expected: str, generated: str, conn) -> None:
    import contextlib
    import io
    import logging

    from math_verify import grader
    from math_verify.errors import TimeoutException
    from math_verify.metric import math_metric
    from math_verify.parser import ExprExtractionConfig, LatexExtractionConfig

    logging.getLogger("math_verify").setLevel(logging.CRITICAL)
    verifier = math_metric(gold_extraction_target=(LatexExtractionConfig(),),
                           pred_extraction_target=(ExprExtractionConfig(), LatexExtractionConfig()))
    try:
        try:
            gold = "\\boxed{" + _strip_math_delimiters(expected) + "}"
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                score, extracted = verifier([gold], [generated])
            reward = float(score)
            if extracted is not None:
                golds, preds = extracted
                for pred in preds:
                    if any(grader.verify(g, pred) for g in golds):
                        extracted = pred
                        break
                else:
                    extracted = preds[0] if preds else None
            result = (reward, extracted)
        except (Exception, TimeoutException):
            result = (0.0, None)
        conn.send(result)
    finally:
        conn.close()


def _warm_up() -> None:
    """Run one pair in this process so the children start with the parser (ANTLR tables) loaded."""
    import contextlib
    import io
    from math_verify.metric import math_metric
    from math_verify.parser import ExprExtractionConfig, LatexExtractionConfig

    v = math_metric(gold_extraction_target=(LatexExtractionConfig(),),
                    pred_extraction_target=(ExprExtractionConfig(), LatexExtractionConfig()))
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        v(["\\boxed{\\frac{1}{2}}"], ["The answer is $x = \\sqrt{2}$"])


def label(expected: str, generated: str, timeout_s: float = 10.0):
    ctx = mp.get_context("fork")
    rd, wr = ctx.Pipe(duplex=False)
    p = ctx.Process(target=_label_in_child, args=(expected, generated, wr))
    t0 = time.perf_counter()
    p.start()
    wr.close()
    p.join(timeout_s)
    timed_out = p.is_alive()
    if timed_out:
        p.terminate()
        p.join(1)
        if p.is_alive():
            p.kill()
            p.join()
        out = (0.0, None)
    elif p.exitcode != 0 or not rd.poll():
        out = (0.0, None)
    else:
        try:
            out = rd.recv()
        except EOFError:
            out = (0.0, None)
    rd.close()
    return out[0], out[1], timed_out, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="fixtures/math/golden.jsonl")
    ap.add_argument("--label-only", help="label the rows of this JSONL file instead of generating")
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args()
    # imported before forking so that every child inherits the loaded library (and fails early without PYTHONPATH)
    import math_verify.metric  # noqa: F401
    import math_verify.grader  # noqa: F401
    from math_verify.parser import ExprExtractionConfig, LatexExtractionConfig, get_extraction_regexes
    get_extraction_regexes((ExprExtractionConfig(), LatexExtractionConfig()))  # compiled once, inherited
    get_extraction_regexes((LatexExtractionConfig(),))
    _warm_up()

    if args.label_only:
        with open(args.label_only) as f:
            rows = [json.loads(l) for l in f if l.strip()]
    else:
        rows = generated_pairs()
    if args.limit:
        rows = rows[: args.limit]
    tmp = args.out + ".tmp"
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    t_start = time.perf_counter()
    with open(tmp, "w") as f:
        for i, row in enumerate(rows):
            reward, extracted, timed_out, _ = label(row["expected_answer"], row["response_text"])
            out = dict(row)
            out["reward"] = reward
            out["extracted_answer"] = extracted
            if timed_out:
                out["timed_out"] = True
            f.write(json.dumps(out, ensure_ascii=False) + "\n")
            if i % 100 == 0:
                print(f"{i}/{len(rows)} {time.perf_counter() - t_start:.0f}s", file=sys.stderr)
    os.replace(tmp, args.out)
    print(f"labelled {len(rows)} pairs into {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
