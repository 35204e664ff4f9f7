/// The frame every page shares: one stylesheet inline (nothing is fetched from anywhere),
/// sized for a phone first and widened for a desktop.
enum Layout {
    static func page(title: String, csrf: String?, body: String, script: String = "") -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        \(csrf.map { "<meta name=\"csrf\" content=\"\(Text.html($0))\">" } ?? "")
        <title>\(Text.html(title)) · motionlog</title>
        <style>\(css)</style></head>
        <body><header class="top"><a href="/" class="brand">motionlog</a><span class="host">\(Text.html(title))</span></header>
        <main>\(body)</main>
        \(script.isEmpty ? "" : "<script>\(script)</script>")
        </body></html>
        """
    }

    static let css = """
    :root{--fg:#1b1f24;--muted:#5b6470;--line:#d9dee4;--bg:#f6f7f9;--card:#fff;--accent:#1f6feb;--ok:#1a7f37;--warn:#b35900;--bad:#c62828}
    *{box-sizing:border-box}body{margin:0;font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
    header.top{display:flex;gap:.75rem;align-items:baseline;padding:.6rem 1rem;background:#14171c;color:#fff}
    header.top a{color:#fff;text-decoration:none;font-weight:700}header .host{color:#aab;font-size:.9rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
    main{max-width:1100px;margin:0 auto;padding:.75rem}
    h1{font-size:1.3rem;margin:.4rem 0}h2{font-size:1.05rem;margin:1.2rem 0 .4rem}
    .card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.75rem;margin:.6rem 0}
    .live{border-color:var(--ok);border-width:2px}.live.idle{border-color:var(--line)}
    .live .stats{display:grid;grid-template-columns:repeat(2,1fr);gap:.3rem .8rem;margin:.5rem 0}
    .stat b{display:block;font-size:1.25rem}.stat span{color:var(--muted);font-size:.8rem}
    button,.button{font:inherit;border:1px solid var(--line);background:#fff;border-radius:8px;padding:.5rem .8rem;cursor:pointer;color:var(--fg);text-decoration:none;display:inline-block}
    button.primary{background:var(--accent);border-color:var(--accent);color:#fff}button.danger{color:var(--bad);border-color:var(--bad)}
    button:disabled{opacity:.45;cursor:default}
    .actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:.5rem 0}
    ul.recs{list-style:none;margin:0;padding:0}
    ul.recs li{background:var(--card);border:1px solid var(--line);border-radius:10px;margin:.5rem 0;display:flex;gap:.6rem;align-items:flex-start;padding:.6rem}
    ul.recs li.writing{border-color:var(--ok)}
    ul.recs input[type=checkbox]{width:1.4rem;height:1.4rem;margin-top:.15rem;flex:none}
    .rec{flex:1;min-width:0}.rec a.title{font-weight:650;color:var(--fg);text-decoration:none;font-size:1.05rem}
    .facts{display:flex;flex-wrap:wrap;gap:.2rem .9rem;color:var(--muted);font-size:.9rem;margin-top:.15rem}
    .name{color:var(--muted);font-size:.8rem;font-family:ui-monospace,monospace;overflow-wrap:anywhere}
    .badge{display:inline-block;border-radius:999px;padding:.05rem .5rem;font-size:.78rem;font-weight:600;margin:.15rem .25rem 0 0;background:#e8f5ec;color:var(--ok)}
    .badge.warn{background:#fff1e0;color:var(--warn)}.badge.bad{background:#fdeaea;color:var(--bad)}.badge.live{background:var(--ok);color:#fff}
    .gap{color:var(--muted);font-style:italic;font-size:.9rem}
    svg{width:100%;height:auto;display:block}svg text{font:11px system-ui,sans-serif;fill:var(--muted)}
    svg.track{background:#eef3ea;border-radius:8px}.map-bg{fill:#eef3ea}
    svg.track path.move{fill:none;stroke:var(--accent);stroke-width:3;stroke-linejoin:round;stroke-linecap:round}
    svg .start{fill:var(--ok);stroke:#fff;stroke-width:2}svg .end{fill:var(--bad);stroke:#fff;stroke-width:2}
    svg .scale path{fill:none;stroke:#333;stroke-width:1.5}svg .scale text,svg .north text{fill:#333;font-weight:600}
    svg .north path{fill:#333}
    svg .grid{stroke:var(--line);stroke-width:1}svg .line{fill:none;stroke:var(--accent);stroke-width:1.6}
    svg .band{fill:#1f6feb33;stroke:none}svg.elevation .line{stroke:#6d4c41}svg.accel .line{stroke:#7b1fa2}svg.accel .band{fill:#7b1fa233}
    .legend{display:flex;flex-wrap:wrap;gap:.3rem .9rem;font-size:.85rem;color:var(--muted);margin:.4rem 0}
    .legend i,ul.timeline i{display:inline-block;width:.9rem;height:.9rem;border-radius:3px;margin-right:.3rem;vertical-align:-2px}
    .legend i.stopkey{border:2px solid #b35900;border-radius:50%;background:#fff1e0}
    ul.timeline{list-style:none;padding:0;margin:0;background:var(--card);border:1px solid var(--line);border-radius:10px}
    ul.timeline li{display:flex;flex-wrap:wrap;align-items:center;gap:.2rem .6rem;padding:.45rem .6rem;border-top:1px solid var(--line)}
    ul.timeline li:first-child{border-top:none}ul.timeline li.day{font-weight:600;background:var(--bg)}ul.timeline .when{font-variant-numeric:tabular-nums;color:var(--muted);min-width:6.5rem}
    svg .stop{fill:#b3590040;stroke:#b35900;stroke-width:1.5}svg.movement .line{stroke:#b35900}svg .bar{fill:#b35900cc}
    .grid2{display:grid;grid-template-columns:1fr;gap:.6rem}
    table.meta{border-collapse:collapse;width:100%;font-size:.9rem}table.meta td{border-top:1px solid var(--line);padding:.3rem .4rem;vertical-align:top;overflow-wrap:anywhere}
    table.meta td:first-child{color:var(--muted);width:40%}
    .downloads a{margin:.2rem .3rem .2rem 0}
    .msg{padding:.5rem .7rem;border-radius:8px;background:#fff1e0;margin:.5rem 0;display:none}.msg.show{display:block}
    form.login{max-width:22rem;margin:3rem auto}form.login input{font:inherit;width:100%;padding:.6rem;margin:.4rem 0 .8rem;border:1px solid var(--line);border-radius:8px}
    dialog{border:1px solid var(--line);border-radius:10px;max-width:26rem}
    @media (min-width:760px){.live .stats{grid-template-columns:repeat(6,1fr)}.grid2{grid-template-columns:1fr 1fr}.page-top{display:grid;grid-template-columns:3fr 2fr;gap:1rem}}
    """
}
