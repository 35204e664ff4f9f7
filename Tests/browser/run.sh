#!/usr/bin/env bash
# The web page in a real browser (make test-browser): Debian's chromium, headless, against
# `motionlog serve` on simulator recordings on a free loopback port. Checks the DOM
# (--dump-dom) of the list and of a recording's page and writes screenshots at phone
# (390x844) and desktop (1280x800) sizes under .build/screenshots/. Then deletes through the
# page (Tests/browser/interact.py: real clicks over the DevTools protocol) while a recording
# is being written in the folder.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v chromium >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    echo "Installing Debian's chromium for the browser tests..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium
  else
    echo "chromium is missing: sudo apt-get install chromium (or run make test-browser as root)"; exit 1
  fi
fi

bin=${MOTIONLOG:-./.build/release/motionlog}
[ -x "$bin" ] || { echo "build first: make build"; exit 1; }
work=$(mktemp -d)
shots=.build/screenshots
mkdir -p "$shots"
server=""; recorder=""
stop() { # pid: SIGINT (the recorder's clean stop), SIGKILL when it has not ended in 10 s; its status
  kill -INT "$1" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$1" 2>/dev/null || true; wait "$1" 2>/dev/null
}
cleanup() {
  if [ -n "$recorder" ]; then stop "$recorder" || true; fi
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# Two simulated rides (the simulator's scripted route has GPS) on the simulated clock, and
# one rotated into three files.
"$bin" record --board simulator --duration 60 --fast --out "$work/rec" --quiet >/dev/null
"$bin" record --board simulator --duration 20 --fast --out "$work/rec" --quiet --label C >/dev/null
names=$(cd "$work/rec" && ls *.csv | sed 's/\.csv$//')
[ "$(echo "$names" | wc -l)" -ge 2 ] || { echo "the simulator made no recordings"; exit 1; }
# One recording rotated into three files (in the same folder, so the recorder gives each
# file a name of its own): one card, one page.
"$bin" record --board simulator --duration 90 --rotate-time 30s --fast --out "$work/rec" --quiet >/dev/null
parts=$(cd "$work/rec" && ls *.csv | sed 's/\.csv$//' | grep -vxF "$names" || true)
[ "$(echo "$parts" | wc -l)" -ge 3 ] || { echo "the simulator made no rotated recording"; exit 1; }
# In part order (the metadata's file.index), which the names need not sort in.
parts=$(cd "$work/rec" && for n in $parts; do python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["file"]["index"], sys.argv[2])' "$n.json" "$n"; done | sort -n | cut -d' ' -f2)

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
"$bin" serve --out "$work/rec" --listen "127.0.0.1:$port" >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do
  curl -fsS -o /dev/null "http://127.0.0.1:$port/api/status" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || { cat "$work/serve.log"; echo "motionlog serve exited"; exit 1; }
  sleep 0.2
done

browser() {
  chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --hide-scrollbars \
    --user-data-dir="$work/profile" "$@" 2>>"$work/chromium.log"
}

passed=0; failed=0
check() { # description, command...
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok: $what"; else failed=$((failed + 1)); echo "FAILED: $what"; fi
}

list=$work/list.html
browser --virtual-time-budget=3000 --dump-dom "http://127.0.0.1:$port/" >"$list"
for n in $names; do check "list shows $n" grep -q "data-name=\"$n\"" "$list"; done
check "list has the select/download/delete controls" grep -q 'id="del-selected"' "$list"
first=$(echo "$names" | head -n 1)
rotated=$(echo "$parts" | head -n 1)
nrec=$(( $(echo "$names" | wc -l) + 1 )); nfiles=$(( $(echo "$names" | wc -l) + $(echo "$parts" | wc -l) ))
check "list counts the rotated recording once" grep -q "$nrec recordings ($nfiles files)" "$list"
check "one card selects every part" grep -q "data-files=\"$(echo "$parts" | paste -sd/)\"" "$list"
check "no card for a later part" bash -c "! grep -q 'data-name=\"$(echo "$parts" | tail -n 1)\"' '$list'"
rpage=$work/rotated.html
browser --virtual-time-budget=3000 --dump-dom "http://127.0.0.1:$port/recordings/$rotated" >"$rpage"
check "the rotated recording's page has one track" grep -qE 'class="move"[^>]* d="M' "$rpage"
for n in $parts; do check "the rotated recording's page links $n.csv" grep -q "href=\"/recordings/$n.csv\"" "$rpage"; done
later=$(echo "$parts" | tail -n 1)
check "a later part's page leads to the first's" test "$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' "http://127.0.0.1:$port/recordings/$later")" = "303 http://127.0.0.1:$port/recordings/$rotated"
page=$work/page.html
browser --virtual-time-budget=3000 --dump-dom "http://127.0.0.1:$port/recordings/$first" >"$page"
check "page has the track's SVG path" grep -qE 'class="move"[^>]* d="M' "$page"
check "page has the start and end marks" grep -q 'class="start"' "$page"
check "page has the speed chart" grep -q 'class="chart speed"' "$page"
check "page has the elevation chart" grep -q 'class="chart elevation"' "$page"
check "page has the acceleration chart" grep -q 'class="chart accel"' "$page"
check "page links the CSV download" grep -q "href=\"/recordings/$first.csv\"" "$page"

for size in 390,844 1280,800; do
  w=${size%,*}
  browser --window-size="$size" --screenshot="$shots/list-$w.png" "http://127.0.0.1:$port/" >/dev/null
  browser --window-size="$size" --screenshot="$shots/recording-$w.png" "http://127.0.0.1:$port/recordings/$first" >/dev/null
  browser --window-size="$size" --screenshot="$shots/rotated-$w.png" "http://127.0.0.1:$port/recordings/$rotated" >/dev/null
  check "screenshot rotated-$w.png" test -s "$shots/rotated-$w.png"
  check "screenshot list-$w.png" test -s "$shots/list-$w.png"
  check "screenshot recording-$w.png" test -s "$shots/recording-$w.png"
done

# Delete selected, in the browser, with a recording being written right now in the folder:
# `serve` (no recorder attached) refuses it (409) while its metadata says it has not ended
# and its CSV was written to in the last minute, and marks its card "recording now".
# Rotated every 5 s, so that its card holds several files, none of which may go.
"$bin" record --board simulator --duration 120 --rotate-time 5s --out "$work/rec" --quiet >"$work/record.log" 2>&1 &
recorder=$!
live=""
for _ in $(seq 1 300); do
  curl -fsS -o "$work/poll.html" "http://127.0.0.1:$port/" 2>/dev/null &&
    live=$(grep -oE '<li class="writing" data-name="[^"]+">' "$work/poll.html" | head -n 1 | sed -E 's/.*data-name="([^"]+)".*/\1/') &&
    [ -n "$live" ] && grep -qE "value=\"$live\" data-files=\"[^\"]+/" "$work/poll.html" && break
  kill -0 "$recorder" 2>/dev/null || { cat "$work/record.log"; echo "motionlog record exited"; exit 1; }
  live=""; sleep 0.1
done
[ -n "$live" ] || { echo "the list never showed the recording being written (in two files or more)"; exit 1; }
interact() { python3 Tests/browser/interact.py --timeout 40 --log "$work/chromium.log" "$@"; }
card() { echo "!!document.querySelector('li[data-name=\"$1\"]')"; }
ran() { # output, status: the steps' output when one failed
  [ "$2" = 0 ] && return 0; sed 's/^/    /' "$1"; return 1
}

# The recording being written and a finished one, selected together: the finished one is
# deleted; none of the other's files are touched, and the reloaded page says why.
gone=$(echo "$names" | head -n 1)
out=$work/delete-refused.out; rc=0
interact viewport 390,844 open "http://127.0.0.1:$port/" eval 'window.before = true' \
  click ".pick[value=\"$live\"]" click ".pick[value=\"$gone\"]" eval "window.liveFiles = (document.querySelector('.pick[value=\"$live\"]').dataset.files || '$live')" \
  print live-files "window.liveFiles" click '#del-selected' \
  wait "!window.before && document.readyState === 'complete' && document.getElementById('msg').classList.contains('show')" \
  print gone-card "$(card "$gone")" print live-card "$(card "$live")" \
  print msg "document.getElementById('msg').textContent" \
  print msg-on-screen "(r=>r.top>=0&&r.bottom<=innerHeight&&r.height>0)(document.getElementById('msg').getBoundingClientRect())" \
  print download "document.getElementById('dl-selected').textContent" \
  screenshot "$shots/list-delete-refused-390.png" >"$out" 2>&1 || rc=$?
check "delete with a refusal: every browser step ran" ran "$out" "$rc"
check "the confirm() names the finished one and says the other is being recorded" grep -qE "^dialog: \"Delete 1 recording for good\?\\\\n\\\\n$gone\\\\n\\\\nNot $live: being recorded\." "$out"
check "the deleted recording's card left the page" grep -qxF 'gone-card: false' "$out"
check "the deleted recording's CSV and metadata left the disk" bash -c "! ls '$work/rec/$gone'.* 2>/dev/null"
check "the refused recording's card stays" grep -qxF 'live-card: true' "$out"
livefiles=$(sed -n 's/^live-files: "\(.*\)"$/\1/p' "$out" | tr '/' ' ')
check "the card being written holds several files" test "$(echo "$livefiles" | wc -w)" -ge 2
check "every file of the recording being written stays on disk" bash -c "for f in $livefiles; do test -s '$work/rec/'\$f.csv || exit 1; done"
check "the page says what was deleted, which was not and why" grep -qE "^msg: \"Deleted 1 recording\. Not deleted: $live is being recorded" "$out"
check "the message names only the refused one" bash -c "! grep '^msg:' '$out' | grep -qF '$gone'"
check "the message says the parts of the one being written are kept together" grep -qF "$live is being recorded: stop the recording first (its parts are kept together)" "$out"
check "the message is on a phone's screen" grep -qxF 'msg-on-screen: true' "$out"
check "the reloaded page has nothing selected" grep -qxF 'download: "Download selected"' "$out"
check "no JavaScript errors on the refusal" bash -c "! grep -q '^page error' '$out'"
check "screenshot list-delete-refused-390.png" test -s "$shots/list-delete-refused-390.png"

# One finished recording: deleted, and the page reloads without it.
gone2=$(echo "$names" | sed -n 2p)
out=$work/delete-one.out; rc=0
interact viewport 390,844 open "http://127.0.0.1:$port/" eval 'window.before = true' \
  click ".pick[value=\"$gone2\"]" click '#del-selected' \
  wait "!window.before && document.readyState === 'complete' && !($(card "$gone2"))" \
  print live-card "$(card "$live")" print msg "document.getElementById('msg').textContent" \
  print count "document.querySelector('h1 + .facts span').textContent" >"$out" 2>&1 || rc=$?
check "delete one: every browser step ran (the page reloaded without its card)" ran "$out" "$rc"
check "the confirm() names the one recording" grep -qE "^dialog: \"Delete 1 recording for good\?\\\\n\\\\n$gone2\\\\n" "$out"
check "its CSV and metadata left the disk" bash -c "! ls '$work/rec/$gone2'.* 2>/dev/null"
check "the reloaded list counts two recordings fewer (and the one being written)" grep -qE "^count: \"$((nrec - 1)) recordings \(" "$out"
check "the reloaded list still shows the recording being written" grep -qxF 'live-card: true' "$out"
check "the reloaded page says the one recording was deleted" grep -qxF 'msg: "Deleted 1 recording."' "$out"
check "no JavaScript errors on the delete" bash -c "! grep -q '^page error' '$out'"
rc=0; stop "$recorder" || rc=$?; recorder=""
check "the recording being written stops cleanly on SIGINT" test "$rc" = 0

# A recording being written in one file (no rotation), selected alone: nothing is deleted
# and the message speaks of no parts (it said "its parts are kept together" of every one).
"$bin" record --board simulator --duration 120 --out "$work/rec" --quiet >"$work/record.log" 2>&1 &
recorder=$!
single=""
for _ in $(seq 1 300); do
  curl -fsS -o "$work/poll.html" "http://127.0.0.1:$port/" 2>/dev/null &&
    single=$(grep -oE '<li class="writing" data-name="[^"]+">' "$work/poll.html" | head -n 1 | sed -E 's/.*data-name="([^"]+)".*/\1/') &&
    [ -n "$single" ] && break
  kill -0 "$recorder" 2>/dev/null || { cat "$work/record.log"; echo "motionlog record exited"; exit 1; }
  single=""; sleep 0.1
done
[ -n "$single" ] || { echo "the list never showed the single-file recording being written"; exit 1; }
out=$work/delete-single.out; rc=0
interact viewport 390,844 open "http://127.0.0.1:$port/" click ".pick[value=\"$single\"]" click '#del-selected' \
  wait "document.getElementById('msg').classList.contains('show')" \
  print msg "document.getElementById('msg').textContent" print card "$(card "$single")" >"$out" 2>&1 || rc=$?
check "delete of a one-file recording being written: every browser step ran" ran "$out" "$rc"
check "it is refused, and no parts are spoken of" grep -qxF "msg: \"Not deleted: $single is being recorded: stop the recording first\"" "$out"
check "its card stays and its CSV is on disk" bash -c "grep -qxF 'card: true' '$out' && test -s '$work/rec/$single.csv'"
rc=0; stop "$recorder" || rc=$?; recorder=""
check "the one-file recording being written stops cleanly on SIGINT" test "$rc" = 0

echo "screenshots in $shots/"
echo "browser: $passed passed, $failed failed"
[ "$failed" = 0 ]
