import MotionCore

/// `/`: the live card (when a recorder is attached) and the recordings, newest first, with
/// select, download and delete. A recording rotated into several files is one card; its
/// checkbox selects all of its files.
enum ListPage {
    static let pageSize = 100

    static func render(recordings entries: [RecordingParts], page: Int, live: LiveStatus?, hasLive: Bool, writing: Set<String>,
                       csrf: String, folder: String, loginEnabled: Bool) -> String {
        var body = ""
        if hasLive { body += liveCard(live) }
        let pages = max(1, (entries.count + pageSize - 1) / pageSize)
        let p = min(max(page, 1), pages)
        let shown = entries.dropFirst((p - 1) * pageSize).prefix(pageSize)
        let total = entries.reduce(Int64(0)) { $0 + $1.sizeBytes }
        let files = entries.reduce(0) { $0 + $1.parts.count }
        let count = "\(entries.count) recording\(entries.count == 1 ? "" : "s")" + (files == entries.count ? "" : " (\(files) files)")
        body += "<h1>Recordings</h1><div class=\"facts\"><span>\(count), \(Text.size(total))</span><span class=\"name\">\(Text.html(folder))</span>"
        if loginEnabled { body += "<span><a href=\"/logout\" data-post>Log out</a></span>" }
        body += "</div>"
        body += """
        <div class="actions" id="bulk">
        <label><input type="checkbox" id="all"> all</label>
        <a class="button" id="dl-selected" href="/download.zip">Download selected</a>
        <a class="button" href="/download.zip?all=1" download>Download all (ZIP)</a>
        <button class="danger" id="del-selected" disabled>Delete selected</button>
        </div><div class="msg" id="msg"></div>
        """
        if entries.isEmpty {
            body += "<p class=\"card\">No recordings yet. Start one with the button on the logger, <code>motionlog start</code>, or <code>motionlog record</code>.</p>"
        }
        body += "<ul class=\"recs\" id=\"recs\">"
        for r in shown { body += row(r, writing: r.parts.contains { writing.contains($0.name) }) }
        body += "</ul>"
        if pages > 1 {
            body += "<div class=\"actions\">"
            if p > 1 { body += "<a class=\"button\" href=\"/?page=\(p - 1)\">Newer</a>" }
            body += "<span>page \(p) of \(pages)</span>"
            if p < pages { body += "<a class=\"button\" href=\"/?page=\(p + 1)\">Older</a>" }
            body += "</div>"
        }
        return Layout.page(title: "Recordings", csrf: csrf, body: body, script: script)
    }

    /// One card: a single file, or every part of a rotated recording (`data-files` names
    /// them all, separated by `/`, which no file name holds).
    static func row(_ r: RecordingParts, writing: Bool) -> String {
        let e = r.first
        let link = "/recordings/" + Text.path(e.name)
        var facts: [String] = []
        facts.append(Text.duration(r.durationSeconds))
        if let d = Text.distance(r.distanceMeters) { facts.append(d) }
        facts.append(Text.size(r.sizeBytes))
        if let mix = r.activityMix { facts.append(Text.html(mix)) }
        if !r.sources.isEmpty { facts.append(sourcesText(r.sources)) }
        if let parts = r.partsText { facts.append(Text.html(parts)) }
        if let l = e.label { facts.append("label \(Text.html(l))") }
        var badges = writing ? "<span class=\"badge live\">recording now</span>" : ""
        for h in r.health where !(writing && h == "unfinished") { badges += badge(h) }
        let files = r.parts.map(\.name)
        let names = files.count == 1 ? Text.html(e.name)
            : Text.html(files[0]) + " … " + Text.html(files[files.count - 1])
        return """
        <li class="\(writing ? "writing" : "")" data-name="\(Text.html(e.name))"><input type="checkbox" class="pick" value="\(Text.html(e.name))" data-files="\(Text.html(files.joined(separator: "/")))" aria-label="select \(Text.html(e.name))"\(writing ? " data-writing" : "")>
        <div class="rec"><a class="title" href="\(link)">\(Text.html(Text.localTime(e.startEpoch)))</a>
        <div class="facts">\(facts.map { "<span>\($0)</span>" }.joined())</div>
        <div>\(badges)</div><div class="name">\(names)</div></div></li>
        """
    }

    static func badge(_ h: String) -> String {
        let kind: String
        switch h {
        case "clean": kind = ""
        case "recovered", "overruns", "no GPS", "unfinished", "parts missing", RecordingEntry.clockNotSet: kind = " warn"
        default: kind = " bad"
        }
        return "<span class=\"badge\(kind)\">\(Text.html(h))</span>"
    }

    static func sourcesText(_ letters: String) -> String {
        let names: [Character: String] = ["A": "accel", "G": "gyro", "M": "mag", "D": "motion", "L": "GPS"]
        return letters.compactMap { names[$0] }.joined(separator: "·")
    }

    static func liveCard(_ s: LiveStatus?) -> String {
        let recording = s?.isRecording ?? false
        return """
        <section class="card live\(recording ? "" : " idle")" id="live">
        <div class="actions" style="justify-content:space-between;margin:0"><strong id="live-state">\(Text.html(stateText(s)))</strong>
        <span class="name" id="live-file">\(Text.html(s?.currentName ?? ""))</span></div>
        <div class="stats">
        <div class="stat"><b id="live-elapsed">\(Text.clock(s?.elapsedSeconds ?? 0))</b><span>elapsed</span></div>
        <div class="stat"><b id="live-rows">\(Text.html(rowsText(s)))</b><span>rows/s</span></div>
        <div class="stat"><b id="live-gps">\(Text.html(s?.gps?.fix ?? "–"))</b><span>GPS</span></div>
        <div class="stat"><b id="live-clock">\(Text.html(clockText(s)))</b><span>clock</span></div>
        <div class="stat"><b id="live-free">\(Text.html(s?.freeSpace?.availableBytes.map(Text.size) ?? "–"))</b><span>free space</span></div>
        <div class="stat"><b id="live-label">\(Text.html(s?.label ?? "–"))</b><span>label</span></div>
        </div>
        <div class="actions">
        <button class="primary" id="btn-start"\(recording ? " disabled" : "")>Start</button>
        <button class="danger" id="btn-stop"\(recording ? "" : " disabled")>Stop</button>
        <input id="label-in" maxlength="1" size="2" placeholder="W" aria-label="label letter" style="font:inherit;width:3rem;padding:.45rem;text-align:center;border:1px solid var(--line);border-radius:8px;text-transform:uppercase">
        <button id="btn-label">Set label</button>
        </div></section>
        """
    }

    static func stateText(_ s: LiveStatus?) -> String {
        guard let s else { return "recorder not reachable" }
        switch s.state {
        case "recording"?: return "● Recording"
        case "stopping"?: return "Stopping…"
        case "error"?: return "Error: " + (s.message ?? "")
        case "idle"?: return "Not recording"
        default: return s.state ?? "unknown"
        }
    }

    static func rowsText(_ s: LiveStatus?) -> String {
        guard let r = s?.rowsPerSecond, !r.isEmpty else { return "–" }
        return r.values.reduce(0, +).rounded().description.replacingOccurrences(of: ".0", with: "")
    }

    static func clockText(_ s: LiveStatus?) -> String {
        guard let c = s?.clock else { return "–" }
        return (c.source ?? "?") + (c.synchronized == false ? " (not synced)" : "")
    }

    /// Selection, ZIP link, delete with confirmation, live updates (server-sent events) and
    /// the start/stop/label buttons. Every POST/DELETE carries the page's CSRF token.
    static let script = """
    const csrf=document.querySelector('meta[name=csrf]').content;
    const msg=t=>{const m=document.getElementById('msg');m.textContent=t;m.classList.toggle('show',!!t);};
    const cards=()=>[...document.querySelectorAll('.pick:checked')];
    const picks=()=>cards().flatMap(c=>(c.dataset.files||c.value).split('/'));
    function sync(){const n=picks();const dl=document.getElementById('dl-selected');
    dl.href='/download.zip?'+n.map(x=>'name='+encodeURIComponent(x)).join('&');const k=cards().length;dl.textContent=k?`Download selected (${k})`:'Download selected';
    dl.style.pointerEvents=n.length?'':'none';dl.style.opacity=n.length?'':'.45';
    document.getElementById('del-selected').disabled=!n.length;}
    document.querySelectorAll('.pick').forEach(c=>c.addEventListener('change',sync));
    document.getElementById('all').addEventListener('change',e=>{document.querySelectorAll('.pick').forEach(c=>c.checked=e.target.checked);sync();});
    async function send(method,url,body){const r=await fetch(url,{method,headers:{'X-CSRF-Token':csrf,'Content-Type':'application/json'},body:body?JSON.stringify(body):undefined,credentials:'same-origin'});
    if(r.status===401){location.href='/login';}
    let j={};try{j=await r.json();}catch(e){}return {ok:r.ok,status:r.status,j};}
    document.getElementById('del-selected').addEventListener('click',async()=>{const all=cards();if(!all.length)return;
    const busy=all.filter(c=>c.closest('li.writing')),sel=all.filter(c=>!c.closest('li.writing'));
    const held=busy.map(c=>c.value+' is being recorded: stop the recording first'+((c.dataset.files||'').includes('/')?' (its parts are kept together)':''));
    if(!sel.length){msg('Not deleted: '+held.join('; '));return;}
    const n=sel.flatMap(c=>(c.dataset.files||c.value).split('/'));const k=sel.length;
    if(!confirm(`Delete ${k} recording${k>1?'s':''}${n.length>k?` (${n.length} files)`:''} for good?\\n\\n${n.join('\\n')}${busy.length?`\\n\\nNot ${busy.map(c=>c.value).join(', ')}: being recorded.`:''}\\n\\nEach CSV and its metadata are removed from the logger.`))return;
    const btn=document.getElementById('del-selected');btn.disabled=true;btn.textContent='Deleting…';
    const failed=[...held],gone=new Set();
    for(const x of n){const r=await send('DELETE','/api/recordings/'+encodeURIComponent(x));if(r.ok||r.status===404)gone.add(x);else failed.push(r.j.error||(x+': not deleted (HTTP '+r.status+')'));}
    const partsOf=c=>(c.dataset.files||c.value).split('/'),whole=sel.filter(c=>partsOf(c).every(f=>gone.has(f))).length;
    let t=whole?`Deleted ${whole} recording${whole>1?'s':''}.`:'';
    for(const c of sel){const f=partsOf(c),d=f.filter(x=>gone.has(x)).length;if(d&&d<f.length)t+=` Deleted ${d} of the ${f.length} parts of ${c.value}.`;}
    sessionStorage.setItem('msg',(t||'Nothing deleted.').trim()+(failed.length?' Not deleted: '+failed.join('; '):''));
    location.reload();});
    {const m=sessionStorage.getItem('msg');if(m){sessionStorage.removeItem('msg');msg(m);}}
    document.querySelectorAll('[data-post]').forEach(a=>a.addEventListener('click',async e=>{e.preventDefault();await send('POST',a.getAttribute('href'));location.href='/';}));
    const live=document.getElementById('live');
    if(live){const set=(id,v)=>{const e=document.getElementById(id);if(e)e.textContent=v;};
    const clock=s=>{s=Math.max(0,Math.round(s||0));const h=Math.floor(s/3600),m=Math.floor(s/60)%60,x=s%60;return (h?h+':'+String(m).padStart(2,'0'):m)+':'+String(x).padStart(2,'0');};
    const size=b=>{if(b==null)return '–';const u=['B','KB','MB','GB','TB'];let i=0;while(b>=1024&&i<4){b/=1024;i++;}return (i?b.toFixed(1):b)+' '+u[i];};
    let wasRecording=live.classList.contains('idle')?false:true;
    function show(s){if(!s){set('live-state','recorder not reachable');return;}
    const rec=s.state==='recording'||s.state==='stopping';
    set('live-state',{recording:'● Recording',stopping:'Stopping…',idle:'Not recording',error:'Error: '+(s.message||'')}[s.state]||s.state);
    set('live-elapsed',clock(s.elapsedSeconds));const r=s.rowsPerSecond||{};const sum=Object.values(r).reduce((a,b)=>a+b,0);
    set('live-rows',Object.keys(r).length?Math.round(sum):'–');set('live-gps',(s.gps&&s.gps.fix)||'–');
    set('live-clock',s.clock?(s.clock.source+(s.clock.synchronized===false?' (not synced)':'')):'–');
    set('live-free',size(s.freeSpace&&s.freeSpace.availableBytes));set('live-label',s.label||'–');
    set('live-file',rec&&s.currentFile?s.currentFile.split('/').pop().replace(/\\.csv$/,''):'');
    live.classList.toggle('idle',!rec);document.getElementById('btn-start').disabled=rec;document.getElementById('btn-stop').disabled=!rec;
    if(wasRecording&&!rec){setTimeout(()=>location.reload(),500);}if(!wasRecording&&rec){setTimeout(()=>location.reload(),1500);}wasRecording=rec;}
    const es=new EventSource('/events');es.onmessage=e=>{try{show(JSON.parse(e.data));}catch(x){}};
    const act=async(url,body)=>{msg('');const r=await send('POST',url,body);if(r.j.status)show(r.j.status);if(!r.ok||r.j.ok===false)msg(r.j.message||r.j.error||'refused');};
    document.getElementById('btn-start').addEventListener('click',()=>act('/api/start'));
    document.getElementById('btn-stop').addEventListener('click',()=>{if(confirm('Stop the recording?'))act('/api/stop');});
    document.getElementById('btn-label').addEventListener('click',()=>{const v=document.getElementById('label-in').value.trim().toUpperCase();if(v)act('/api/label',{label:v});});}
    sync();
    """
}
