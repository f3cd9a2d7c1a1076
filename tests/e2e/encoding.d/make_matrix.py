#!/usr/bin/env python3
"""Writes matrix.tsv, the encoding matrix that tests/encoding_test.cc and
tests/e2e/encoding_matrix.sh both read: python3 make_matrix.py > matrix.tsv

Each row is one small RSS document: how its bytes are laid out, its byte
order mark, the label in its XML declaration, the HTTP charset it was served
with, the bytes of its item title and description, the text a reader should
get, and whether the bytes alone determine that text ("bytes": a byte order
mark, NUL padding, or valid UTF-8 with non-ASCII characters) or a label must
be believed ("label").

Python's codecs only produce the title bytes here; the expected text is the
string they were made from.
"""

import sys

# (name, layout, bom, declared, http, title bytes, expected text, determined)
# layout: "bytes" (the document is ASCII around the title bytes) or a UTF-16/32
#   form the whole document is written in.
# declared: "noxml" (no XML declaration), "-" (a declaration naming no
#   encoding) or the label written in it. http: "-" or the charset.
ROWS = []


def row(name, layout, bom, declared, http, raw, want, determined):
    ROWS.append((name, layout, bom, declared, http, raw, want, determined))


def enc(text, codec):
    return text.encode(codec)


CAFE = "Café déjà vu"
QUOTES = "“Quote” €…"
RU = "Привет, мир"
JA = "日本語のブログ"
ZH = "中文博客"

# --- UTF-8 bytes: valid UTF-8 with non-ASCII text wins over any legacy label.
u = lambda t: t.encode("utf-8")
row("utf8 declared utf-8", "bytes", "-", "utf-8", "-", u(CAFE), CAFE, "bytes")
row("utf8 declared UTF-8 uppercase", "bytes", "-", "UTF-8", "-", u(CAFE), CAFE, "bytes")
row("utf8 declaration without encoding", "bytes", "-", "-", "-", u(CAFE), CAFE, "bytes")
row("utf8 without XML declaration", "bytes", "-", "noxml", "-", u(CAFE), CAFE, "bytes")
row("utf8 declared utf8 (alias)", "bytes", "-", "utf8", "-", u(CAFE), CAFE, "bytes")
row("utf8 declared iso-8859-1", "bytes", "-", "iso-8859-1", "-", u(CAFE), CAFE, "bytes")
row("utf8 declared windows-1252", "bytes", "-", "windows-1252", "-", u(QUOTES), QUOTES, "bytes")
row("utf8 declared latin1", "bytes", "-", "latin1", "-", u(CAFE), CAFE, "bytes")
row("utf8 declared us-ascii", "bytes", "-", "us-ascii", "-", u(CAFE), CAFE, "bytes")
row("utf8 declared bogus", "bytes", "-", "bogus", "-", u(CAFE), CAFE, "bytes")
row("utf8 declared utf-16 without BOM", "bytes", "-", "utf-16", "-", u(CAFE), CAFE, "bytes")
row("utf8 Japanese declared Shift_JIS", "bytes", "-", "Shift_JIS", "-", u(JA), JA, "bytes")
row("utf8 Chinese declared gb2312", "bytes", "-", "gb2312", "-", u(ZH), ZH, "bytes")
row("utf8 Cyrillic declared windows-1251", "bytes", "-", "windows-1251", "-", u(RU), RU, "bytes")
row("utf8 Cyrillic declared koi8-r", "bytes", "-", "koi8-r", "-", u(RU), RU, "bytes")
row("utf8 BOM, declared iso-8859-1", "bytes", "utf8", "iso-8859-1", "-", u(CAFE), CAFE, "bytes")
row("utf8 BOM, declared utf-8", "bytes", "utf8", "utf-8", "-", u(CAFE), CAFE, "bytes")
row("utf8 BOM, no XML declaration", "bytes", "utf8", "noxml", "-", u(JA), JA, "bytes")
row("utf8 BOM twice", "bytes", "utf8x2", "utf-8", "-", u(CAFE), CAFE, "bytes")
row("utf8 BOM, declared utf-16", "bytes", "utf8", "utf-16", "-", u(ZH), ZH, "bytes")
row("utf8 BOM, declared windows-1251", "bytes", "utf8", "windows-1251", "-", u(RU), RU, "bytes")
row("http iso-8859-1 on utf8, declared utf-8", "bytes", "-", "utf-8", "iso-8859-1", u(CAFE), CAFE, "bytes")
row("http windows-1252 on utf8, no declaration", "bytes", "-", "noxml", "windows-1252", u(QUOTES), QUOTES, "bytes")
row("http utf-16 on utf8", "bytes", "-", "utf-8", "utf-16", u(CAFE), CAFE, "bytes")
row("http bogus, declared utf-8", "bytes", "-", "utf-8", "bogus", u(JA), JA, "bytes")
row("http utf-8, declared iso-8859-1, utf8 bytes", "bytes", "-", "iso-8859-1", "utf-8", u(CAFE), CAFE, "bytes")
row("http iso-8859-1 with utf8 BOM", "bytes", "utf8", "utf-8", "iso-8859-1", u(RU), RU, "bytes")
row("http shift_jis on utf8 Japanese", "bytes", "-", "-", "shift_jis", u(JA), JA, "bytes")

# --- windows-1252 and other Latin bytes: the label decides.
w = lambda t: t.encode("cp1252")
row("cp1252 declared iso-8859-1", "bytes", "-", "iso-8859-1", "-", w(CAFE), CAFE, "label")
row("cp1252 quotes declared iso-8859-1", "bytes", "-", "iso-8859-1", "-", w(QUOTES), QUOTES, "label")
row("cp1252 declared windows-1252", "bytes", "-", "windows-1252", "-", w(QUOTES), QUOTES, "label")
row("cp1252 declared latin1", "bytes", "-", "latin1", "-", w(QUOTES), QUOTES, "label")
row("cp1252 declared ISO_8859-1 alias", "bytes", "-", "ISO_8859-1", "-", w(CAFE), CAFE, "label")
row("cp1252 declared us-ascii", "bytes", "-", "us-ascii", "-", w(QUOTES), QUOTES, "label")
row("cp1252 declared cp1252", "bytes", "-", "cp1252", "-", w(QUOTES), QUOTES, "label")
row("cp1252 without declaration", "bytes", "-", "noxml", "-", w(CAFE), CAFE, "label")
row("cp1252 declared bogus", "bytes", "-", "bogus", "-", w(CAFE), CAFE, "label")
row("cp1252 declared utf-8", "bytes", "-", "utf-8", "-", w(QUOTES), QUOTES, "label")
row("http iso-8859-1 on cp1252, no declaration", "bytes", "-", "noxml", "iso-8859-1", w(QUOTES), QUOTES, "label")
row("http utf-8 on cp1252, declared iso-8859-1", "bytes", "-", "iso-8859-1", "utf-8", w(CAFE), CAFE, "label")
row("iso-8859-15 euro", "bytes", "-", "iso-8859-15", "-", enc("Prix 5 €", "iso8859_15"), "Prix 5 €", "label")
row("macintosh", "bytes", "-", "macintosh", "-", enc("Café", "mac_roman"), "Café", "label")
row("iso-8859-2 Polish", "bytes", "-", "iso-8859-2", "-", enc("Zażółć gęślą", "iso8859_2"), "Zażółć gęślą", "label")
row("iso-8859-9 read as windows-1254", "bytes", "-", "iso-8859-9", "-", enc("İstanbul ğ", "cp1254"), "İstanbul ğ", "label")

# --- CJK: WHATWG's supersets decode what the narrow charset lacks.
row("gb2312 plain", "bytes", "-", "gb2312", "-", enc(ZH, "gb2312"), ZH, "label")
row("gb2312 label, GBK character", "bytes", "-", "gb2312", "-", enc("朱镕基", "gbk"), "朱镕基", "label")
row("GB2312 label uppercase, GBK character", "bytes", "-", "GB2312", "-", enc("朱镕基", "gbk"), "朱镕基", "label")
row("gbk label", "bytes", "-", "gbk", "-", enc("朱镕基访问", "gbk"), "朱镕基访问", "label")
row("x-gbk label", "bytes", "-", "x-gbk", "-", enc(ZH, "gbk"), ZH, "label")
row("gb18030 four-byte character", "bytes", "-", "gb18030", "-", enc("𠀀字", "gb18030"), "𠀀字", "label")
row("http gb2312, no declaration, GBK character", "bytes", "-", "noxml", "gb2312", enc("朱镕基", "gbk"), "朱镕基", "label")
row("gbk with undecodable bytes", "bytes", "-", "gbk", "-", b"\xff\xff" + enc("中文", "gbk"), "\ufffd\ufffd中文", "label")
row("Shift_JIS plain", "bytes", "-", "Shift_JIS", "-", enc(JA, "shift_jis"), JA, "label")
row("Shift_JIS label, CP932 characters", "bytes", "-", "Shift_JIS", "-", enc("①髙橋", "cp932"), "①髙橋", "label")
row("sjis label", "bytes", "-", "sjis", "-", enc(JA, "cp932"), JA, "label")
row("windows-31j label", "bytes", "-", "windows-31j", "-", enc("①番", "cp932"), "①番", "label")
row("shift_jis with a broken lead byte", "bytes", "-", "shift_jis", "-", b"ab\x82 " + enc("日本", "cp932"), "ab\ufffd 日本", "label")
row("euc-jp", "bytes", "-", "euc-jp", "-", enc(JA, "euc_jp"), JA, "label")
row("iso-2022-jp", "bytes", "-", "iso-2022-jp", "-", enc(JA, "iso2022_jp"), JA, "label")
row("big5 plain", "bytes", "-", "big5", "-", enc(ZH, "big5"), ZH, "label")
row("big5 label, HKSCS character", "bytes", "-", "big5", "-", enc("嘅啲", "big5hkscs"), "嘅啲", "label")
row("big5-hkscs label", "bytes", "-", "big5-hkscs", "-", enc("咗嚟", "big5hkscs"), "咗嚟", "label")
row("euc-kr", "bytes", "-", "euc-kr", "-", enc("한국어", "euc_kr"), "한국어", "label")
row("euc-kr label, windows-949 character", "bytes", "-", "euc-kr", "-", enc("똠방각하", "cp949"), "똠방각하", "label")
row("ks_c_5601-1987 label", "bytes", "-", "ks_c_5601-1987", "-", enc("한국어", "cp949"), "한국어", "label")

# --- Cyrillic, Greek, Hebrew, Thai.
row("windows-1251", "bytes", "-", "windows-1251", "-", enc(RU, "cp1251"), RU, "label")
row("koi8-r", "bytes", "-", "koi8-r", "-", enc(RU, "koi8_r"), RU, "label")
row("koi8-u", "bytes", "-", "koi8-u", "-", enc("Україна їжак", "koi8_u"), "Україна їжак", "label")
row("ibm866", "bytes", "-", "ibm866", "-", enc(RU, "cp866"), RU, "label")
row("iso-8859-7 Greek", "bytes", "-", "iso-8859-7", "-", enc("Καλημέρα", "iso8859_7"), "Καλημέρα", "label")
row("windows-1255 Hebrew", "bytes", "-", "windows-1255", "-", enc("שלום", "cp1255"), "שלום", "label")
row("tis-620 read as windows-874", "bytes", "-", "tis-620", "-", enc("สวัสดี", "cp874"), "สวัสดี", "label")
row("http windows-1251 over declared iso-8859-1", "bytes", "-", "iso-8859-1", "windows-1251", enc(RU, "cp1251"), RU, "label")
row("http koi8-r over declared windows-1251", "bytes", "-", "windows-1251", "koi8-r", enc(RU, "koi8_r"), RU, "label")

# --- UTF-16 and UTF-32: the byte order mark or the NULs decide.
MIX = "Café € 日本"
row("utf-16le BOM, declared utf-16", "utf-16-le", "utf16le", "utf-16", "-", u(MIX), MIX, "bytes")
row("utf-16be BOM, declared utf-16", "utf-16-be", "utf16be", "utf-16", "-", u(MIX), MIX, "bytes")
row("utf-16le BOM, no declaration", "utf-16-le", "utf16le", "noxml", "-", u(MIX), MIX, "bytes")
row("utf-16le BOM twice", "utf-16-le", "utf16lex2", "utf-16", "-", u(MIX), MIX, "bytes")
row("utf-16le BOM, declared iso-8859-1", "utf-16-le", "utf16le", "iso-8859-1", "-", u(MIX), MIX, "bytes")
row("utf-16be BOM, http iso-8859-1", "utf-16-be", "utf16be", "utf-16", "iso-8859-1", u(MIX), MIX, "bytes")
row("utf-16le BOM, http utf-8", "utf-16-le", "utf16le", "utf-16", "utf-8", u(MIX), MIX, "bytes")
row("utf-16le without BOM, declared utf-16", "utf-16-le", "-", "utf-16", "-", u(MIX), MIX, "bytes")
row("utf-16be without BOM, declared utf-16be", "utf-16-be", "-", "utf-16be", "-", u(MIX), MIX, "bytes")
row("utf-16le BOM, astral character", "utf-16-le", "utf16le", "utf-16", "-", u("𝄞 music"), "𝄞 music", "bytes")
row("utf-32le BOM", "utf-32-le", "utf32le", "utf-32", "-", u(MIX), MIX, "bytes")
row("utf-32be BOM", "utf-32-be", "utf32be", "utf-32", "-", u(MIX), MIX, "bytes")
row("utf-32le without BOM, declared utf-32", "utf-32-le", "-", "utf-32", "-", u(MIX), MIX, "bytes")
row("utf-32be without BOM, declared utf-32", "utf-32-be", "-", "utf-32", "-", u(MIX), MIX, "bytes")


def escape(b):
    out = []
    for x in b:
        if x == 0x5C:
            out.append("\\\\")
        elif 0x20 <= x < 0x7F:
            out.append(chr(x))
        else:
            out.append("\\x%02x" % x)
    return "".join(out)


def main():
    print("# encoding matrix: generated by make_matrix.py; the columns are explained there")
    print("# name\tlayout\tbom\tdeclared\thttp\ttitle bytes\texpected\tdetermined")
    for name, layout, bom, declared, http, raw, want, determined in ROWS:
        print("\t".join([name, layout, bom, declared, http, escape(raw), escape(want.encode("utf-8")), determined]))


if __name__ == "__main__":
    sys.exit(main())
