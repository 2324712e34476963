"""The escape corpus of issue 27: texts a hostile tool or server puts where the playground shows
them (descriptions, results, exception messages, printed output, server logs).

Plain Python, standard library only (the corpus tool module and the corpus MCP server import
it). Each entry is ``name -> text``; :data:`MARKS` gives what the screen must show instead.
"""

ESC = "\x1b"
BEL = "\x07"
ST = "\x1b\\"

CORPUS: dict[str, str] = {
    "osc52_clipboard": f"copy{ESC}]52;c;cHduZWQ={BEL}me",
    "bidi_override": "invoice_\u202eexe.pdf\u202c done",
    "c1_csi": "c1\x9b31mred\x9b0m",
    "clear_screen": f"clear{ESC}[2J{ESC}[Hscreen",
    "window_title": f"title{ESC}]0;PWNED-TITLE{BEL}set",
    "osc_title_st": f"title{ESC}]2;PWNED-ST{ST}set",
    "osc8_link": f"{ESC}]8;;https://evil.example/{ST}click{ESC}]8;;{ST}",
    "c1_osc_st": "c1osc\x9d0;PWNED-C1\x9c",
    "dcs": f"dcs{ESC}P+q544e{ST}end",
    "dcs_8bit": "dcs8\x90+q544e\x9cend",
    "apc": f"apc{ESC}_Gf=100;AAAA{ST}end",
    "apc_8bit": "apc8\x9fGa=d\x9cend",
    "pm_sos": f"pm{ESC}^secret{ST}sos{ESC}Xmore{ST}",
    "bidi_isolates": "a\u2066b\u2067c\u2068d\u2069e \u200e\u200f",
    "zero_width": "zero\u200bwidth\u200djoin\u2060ed\ufeff",
    "c0_mix": "nul\x00bs\x08cr\rdel\x7fvt\x0bff\x0c",
    "markup": "[red]red[/red] [link=https://evil.example]x[/link] [@click=app.quit]quit[/]",
    "korean_emoji": "재고 확인 👍🏽 👨\u200d👩\u200d👧 ok",
}

#: A long line (overlong-line entry), kept separate so tables stay readable in the other tests.
OVERLONG = "long" + ESC + "]52;c;" + "A" * 20_000 + BEL

#: Every entry in one text (descriptions hold all of it).
ALL = " | ".join(CORPUS.values())

#: What the screen shows for each raw control (the visible marks).
MARKS = {
    "\x1b": "\\x1b",
    "\x07": "\\x07",
    "\x9b": "\\x9b",
    "\x9d": "\\x9d",
    "\x9c": "\\x9c",
    "\x90": "\\x90",
    "\x9f": "\\x9f",
    "\x00": "\\x00",
    "\x08": "\\x08",
    "\r": "\\x0d",
    "\x7f": "\\x7f",
    "\u202e": "<U+202E>",
    "\u2066": "<U+2066>",
    "\u200b": "<U+200B>",
    "\ufeff": "<U+FEFF>",
}
