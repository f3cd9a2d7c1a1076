// format_style.cc: the search page's style sheet, served by the CGI itself
// (format=css) so that a browser fetches it once, not inside every page.
#include "indexer/schema.h"
#include "web/format_web.h"

namespace blogsearch::web {

namespace {

// The style sheet. Colours come from custom properties so the dark scheme
// only swaps them; sizes are in rem/em so the page follows the reader's
// font size; the sidebar moves below the results on narrow screens.
constexpr std::string_view kStyle = R"css(
:root{--bg:#fdfdfc;--fg:#1b1b1f;--muted:#5b5d66;--line:#d9dae0;--link:#1a4fb5;--visited:#6a3fa0;
--accent:#2f6fdb;--accent-strong:#15409a;--mark:#ffe58a;--mark-fg:#1b1b1f;--panel:#f2f3f6;--focus:#c2410c;
--error:#a4161a;--on-accent:#fff;--ins:#c9f0cf;--del:#f9d0d0;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#15161a;--fg:#e7e7ea;--muted:#a3a6b1;--line:#34363f;
--link:#8ab4ff;--visited:#c3a6ff;--accent:#6f9cf0;--accent-strong:#a9c5ff;--mark:#6b5a12;--mark-fg:#fff6d5;
--panel:#1e2026;--focus:#ff9d5c;--error:#ff8a8a;--on-accent:#0b1220;--ins:#1d4a2a;--del:#5a2226}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;overflow-wrap:anywhere}
a{color:var(--link)}a:visited{color:var(--visited)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible{outline:3px solid var(--focus);outline-offset:2px;border-radius:2px}
.skip{position:absolute;left:-999em}.skip:focus{left:1rem;top:.5rem;background:var(--bg);padding:.25rem .5rem;z-index:1}
header.site{border-bottom:1px solid var(--line);background:var(--panel)}
.wrap{max-width:72rem;margin:0 auto;padding:.75rem 1rem}
.brand{font-weight:700;font-size:1.15rem;text-decoration:none;color:var(--fg)}
.brand:visited{color:var(--fg)}
form.search{margin:.5rem 0 0}
form.search>label{display:block;font-weight:600;margin-bottom:.25rem}
.row{display:flex;gap:.5rem}
input,select,button{font:inherit;color:inherit}
input[type=search]{flex:1;min-width:0;padding:.45rem .6rem;border:1px solid var(--muted);border-radius:.4rem;background:var(--bg)}
button{padding:.45rem 1rem;border:1px solid var(--accent-strong);border-radius:.4rem;background:var(--accent);color:var(--on-accent);font-weight:600;cursor:pointer}
details.options{margin-top:.4rem;font-size:.95rem}
details.options summary{cursor:pointer;color:var(--muted)}
.opts{display:flex;flex-wrap:wrap;gap:.5rem 1rem;margin-top:.4rem}
.opts label{display:flex;flex-direction:column;font-size:.85rem;color:var(--muted)}
.opts input,.opts select{padding:.3rem .4rem;border:1px solid var(--line);border-radius:.3rem;background:var(--bg);color:var(--fg);width:9rem}
.filters{display:flex;flex-wrap:wrap;gap:.4rem;margin:.5rem 0 0;padding:0;list-style:none;font-size:.9rem}
.filters a{display:inline-block;padding:.1rem .6rem;border:1px solid var(--line);border-radius:1rem;text-decoration:none;background:var(--bg)}
.layout{display:grid;gap:1.5rem}
@media (min-width:56rem){.layout{grid-template-columns:minmax(0,1fr) 17rem}}
main h1{font-size:1.35rem;margin:.25rem 0}
main>h2,.help h2{font-size:1.15rem;margin:1.25rem 0 .5rem}
.count,.notice{color:var(--muted);margin:.25rem 0 .75rem}
.notice{border-left:3px solid var(--accent);padding-left:.5rem}
.suggest{font-size:1.05rem}
ol.hits{list-style:none;margin:0;padding:0}
.hit{padding:.75rem 0;border-bottom:1px solid var(--line)}
.hit h2{font-size:1.1rem;margin:0 0 .2rem;line-height:1.3}
.meta{font-size:.875rem;color:var(--muted);margin:0 0 .3rem}
.meta a{color:inherit}
.snippet{margin:0}
.url{font-size:.8rem;color:var(--muted);margin:.2rem 0 0}
mark{background:var(--mark);color:var(--mark-fg);padding:0 .1em;border-radius:.15em}
nav.pages ul{display:flex;flex-wrap:wrap;gap:.35rem;list-style:none;padding:0;margin:1rem 0}
nav.pages a,nav.pages span{display:inline-block;min-width:2.4rem;padding:.35rem .6rem;text-align:center;border:1px solid var(--line);border-radius:.35rem;text-decoration:none}
nav.pages [aria-current]{background:var(--accent);border-color:var(--accent);color:var(--on-accent);font-weight:700}
aside section{margin:0 0 1.25rem}
aside h2{font-size:.95rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);margin:0 0 .4rem}
aside ul{list-style:none;margin:0;padding:0}
aside li a{display:flex;justify-content:space-between;gap:.5rem;padding:.2rem .3rem;border-radius:.3rem;text-decoration:none}
aside li a:hover{background:var(--panel)}
aside li a span:first-child{min-width:0}
aside .n{color:var(--muted);font-variant-numeric:tabular-nums;white-space:nowrap;flex-shrink:0}
aside .fid{color:var(--muted)}
svg.hist{width:100%;height:4.5rem;display:block}
svg.hist rect{fill:var(--accent)}
svg.hist a:hover rect,svg.hist a:focus rect{fill:var(--accent-strong)}
svg.hist line{stroke:var(--line)}
.hist-axis{display:flex;justify-content:space-between;font-size:.75rem;color:var(--muted)}
.error h1{color:var(--error)}
.error pre{white-space:pre-wrap;background:var(--panel);padding:.5rem;border-radius:.3rem}
.help dt{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.9rem}
.help dd{margin:0 0 .4rem 1rem;color:var(--muted)}
.back{margin:.25rem 0 .5rem;font-size:.95rem}
.post article h1{font-size:1.5rem;line-height:1.3}
dl.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.15rem 1rem;margin:.5rem 0 1rem;font-size:.9rem}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}
.post .body{max-width:42rem;line-height:1.6}
.post ins{background:var(--ins);color:var(--fg);text-decoration:none;border-radius:.15em}
.post del{background:var(--del);color:var(--fg);border-radius:.15em}
.post section>h2{font-size:1.15rem;margin:1.25rem 0 .5rem}
.post .body del::before,.post .body del::after,.post .body ins::before,.post .body ins::after,.facts del::before,.facts ins::before{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.post .body del::before,.facts del::before{content:" [removed: "}.post .body ins::before,.facts ins::before{content:" [added: "}
.post .body del::after,.post .body ins::after{content:"] "}
.post .gap{color:var(--muted);padding:0 .3em}
.versions ol{margin:0;padding-left:1.5rem;font-size:.9rem}
.versions li{padding:.15rem 0}
.versions li[aria-current]{font-weight:600}
aside ul.related li{padding:.3rem 0;border-bottom:1px solid var(--line)}
aside ul.related li a{display:block;padding:0}
aside ul.related .meta{display:block;margin:0}
footer.site{border-top:1px solid var(--line);margin-top:2rem;font-size:.875rem;color:var(--muted)}
)css";

}  // namespace

std::string_view page_style() { return kStyle; }

const std::string& style_version() {
  static const std::string version = schema::hex64(XXH3_64bits(kStyle.data(), kStyle.size()));
  return version;
}

}  // namespace blogsearch::web
