# motionlog — quick start: `make demo`, then `make test`.
SWIFT   ?= swift
PREFIX  ?= /usr/local
DESTDIR ?=
# System packages: I2C and gpsd client libraries to build; gpsd and a GPX parser for tests.
# rclone uploads recordings (motionlog offload --remote); dosfstools/e2fsprogs make the
# loop-device sticks of the offload tests; python3-venv holds the S3 test server (moto).
APT_PACKAGES := libi2c-dev libgps-dev gpsd gpsd-clients python3-gpxpy rclone dosfstools e2fsprogs python3-venv strace
# Benchmarks (make bench): C baselines are compiled with gcc, callgrind needs valgrind and
# strip (binutils), the csv.writer baseline python3, the summary figure pandas, the web figure nginx. BENCH_ARGS go to motionlog-bench,
# e.g. make bench BENCH_ARGS="--quick" or BENCH_ARGS="--only format --json /tmp/r.json".
BENCH_APT_PACKAGES := valgrind python3 gcc binutils python3-pandas nginx
BENCH_ARGS ?=
# Release builds carry the Swift runtime and Foundation inside the binary: the installed
# service then starts whatever the toolchain's place (a swiftly toolchain under /home is
# hidden from it by ProtectHome=yes), a binary copied to a board without Swift runs, and
# the process starts about 5 ms sooner (BENCHMARKS.md, "A binary that carries its runtime").
RELEASE_FLAGS := -c release --static-swift-stdlib
DEMO_OUT := ./recordings

.PHONY: all deps commit-info build demo test test-browser bench fuzz install install-poweroff-rule uninstall clean

all: build

# Installs missing system packages when run as root; otherwise says what to run.
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing system packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "Missing system packages:$$missing"; \
	    echo "Run: sudo apt-get install$$missing   (or: sudo make $(MAKECMDGOALS))"; exit 1; \
	  fi; \
	fi

# `motionlog --version` names the commit: written before each build (unchanged file when the
# commit is the same, so nothing recompiles); "unknown" without git.
BUILD_COMMIT_FILE := Sources/MotionApp/Build/BuildCommit.generated.swift
commit-info:
	@commit=$$(git describe --always --dirty 2>/dev/null || echo unknown); \
	text="extension BuildInfo { static var commit: String { \"$$commit\" } }  // written by make"; \
	[ "$$(cat $(BUILD_COMMIT_FILE) 2>/dev/null)" = "$$text" ] || echo "$$text" > $(BUILD_COMMIT_FILE)

build: deps commit-info
	$(SWIFT) build $(RELEASE_FLAGS) --product motionlog

demo: build
	@rm -rf $(DEMO_OUT)/.demo && mkdir -p $(DEMO_OUT)
	@echo "Recording 10 s of a simulated bike ride..."
	@./.build/release/motionlog record --board simulator --duration 10 --out $(DEMO_OUT) --quiet > .build/demo-summary.txt
	@cat .build/demo-summary.txt
	@newest=$$(grep -o '$(DEMO_OUT)/[0-9-]*\.csv' .build/demo-summary.txt | tail -n 1); \
	echo; echo "The CSV went to: $$newest (metadata beside it: $${newest%.csv}.json)"; echo; \
	./.build/release/motionlog check $$newest

test: deps commit-info
	$(SWIFT) build --build-tests
	$(SWIFT) test

# The web page in Debian's chromium, headless (installed when missing and run as root):
# DOM checks and screenshots under .build/screenshots/ (Tests/browser/run.sh).
test-browser: build
	bash Tests/browser/run.sh

# Builds release and runs every benchmark next to its baseline (about 15 minutes; timings
# never run in make test). Prints a table and writes bench/results.json (--json PATH).
bench: deps
	@missing=""; for p in $(BENCH_APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing benchmark packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "Missing benchmark packages:$$missing (sudo apt-get install$$missing); figures needing them are reported as not measured"; \
	  fi; \
	fi
	$(SWIFT) build $(RELEASE_FLAGS)
	./.build/release/motionlog-bench $(BENCH_ARGS)

# Fuzzes every reader of a file the world hands motionlog (check, summary, the timeline
# exports, the wide CSV, GPX import, the config and board files) with libFuzzer and
# AddressSanitizer for FUZZ_SECONDS (default 600); new inputs go to
# .build-fuzz/corpus, a crash to .build-fuzz/crash-* (replay: .build/debug/motionlog-fuzz
# FILE). Seeds: the simulator's recordings, the GPX fixtures, config/ and boards/. Leaks are not reported:
# Foundation's XMLParser leaks 72 bytes per parse error (FoundationXML, not this code). Never
# part of make test (docs/ANALYSIS.md, "Bad input").
FUZZ_SECONDS ?= 600
fuzz: build
	$(SWIFT) build -c release --scratch-path .build-fuzz --product motionlog-fuzz \
	  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld
	@mkdir -p .build-fuzz/corpus .build-fuzz/seeds
	@if [ -z "$$(ls -A .build-fuzz/corpus)" ]; then \
	  echo "Seeding the corpus with simulator recordings..."; \
	  rm -rf .build-fuzz/seeds/*; m=./.build/release/motionlog; \
	  $$m record --board simulator --scenario commute --fast --duration 12m --sources L --out .build-fuzz/seeds/l --quiet >/dev/null && \
	  $$m record --board simulator --scenario commute --fast --duration 60 --rate 20 --sources AL --out .build-fuzz/seeds/al --quiet >/dev/null && \
	  $$m record --board simulator --fast --duration 3 --rate 50 --out .build-fuzz/seeds/all --quiet >/dev/null && \
	  $$m record --board simulator --fast --duration 3 --rate 50 --when relative --out .build-fuzz/seeds/rel --quiet >/dev/null && \
	  $$m record --board simulator --scenario night --fast --duration 2m --rate 20 --sources AD --out .build-fuzz/seeds/night --quiet >/dev/null && \
	  for c in .build-fuzz/seeds/*/*.csv; do n=$$(basename $$(dirname $$c)); cp $$c .build-fuzz/corpus/$$n; \
	    { cat $$c; printf '\n@@metadata@@\n'; cat $${c%.csv}.json; } > .build-fuzz/corpus/$$n-with-metadata; done; \
	  cp Tests/Fixtures/gpx/*.gpx config/config.yaml boards/*.yaml .build-fuzz/corpus/; \
	fi
	cd .build-fuzz && ASAN_OPTIONS=detect_leaks=0 ./release/motionlog-fuzz corpus -max_len=131072 -timeout=20 -rss_limit_mb=3000 \
	  -detect_leaks=0 -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1

# Install locations (PREFIX and DESTDIR as usual; system paths below are where systemd,
# udev, sysusers and polkit look for administrator-installed files).
BINDIR      ?= $(PREFIX)/bin
SHAREDIR    ?= $(PREFIX)/share/motionlog
DOCDIR      ?= $(PREFIX)/share/doc/motionlog
UNITDIR     ?= $(PREFIX)/lib/systemd/system
UDEVDIR     ?= /etc/udev/rules.d
SYSUSERSDIR ?= /etc/sysusers.d
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/vendor-completions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
POLKITDIR   ?= /etc/polkit-1/rules.d
CONFDIR     ?= /etc/motionlog
STATEDIR    ?= /var/lib/motionlog

# Binary, board files, shell completions, systemd unit (ExecStart pointed at BINDIR), udev
# rules, the service user and groups (sysusers), docs, and the default config (never
# overwritten). It installs what `make build` built as you: it neither builds nor installs
# packages, so run `make build` first, then `sudo make install`. With an empty DESTDIR it
# also creates the user and reloads udev and systemd; it does not enable the service (see
# docs/DAEMON.md).
install:
	@if [ ! -x .build/release/motionlog ]; then \
	  echo "Nothing to install yet: run \`make build\` first (as yourself, not root), then \`sudo make install\`."; exit 1; \
	fi
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SHAREDIR)/boards $(DESTDIR)$(DOCDIR) $(DESTDIR)$(UNITDIR) \
	  $(DESTDIR)$(UDEVDIR) $(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(CONFDIR) \
	  $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 0755 .build/release/motionlog $(DESTDIR)$(BINDIR)/motionlog
	install -m 0644 boards/*.yaml $(DESTDIR)$(SHAREDIR)/boards/
	.build/release/motionlog --generate-completion-script bash > $(DESTDIR)$(BASHCOMPDIR)/motionlog
	.build/release/motionlog --generate-completion-script zsh > $(DESTDIR)$(ZSHCOMPDIR)/_motionlog
	.build/release/motionlog --generate-completion-script fish > $(DESTDIR)$(FISHCOMPDIR)/motionlog.fish
	chmod 0644 $(DESTDIR)$(BASHCOMPDIR)/motionlog $(DESTDIR)$(ZSHCOMPDIR)/_motionlog $(DESTDIR)$(FISHCOMPDIR)/motionlog.fish
	install -m 0644 docs/DAEMON.md docs/OFFLOAD.md $(DESTDIR)$(DOCDIR)/
	for u in motionlog.service motionlog-offload@.service motionlog-upload.service; do \
	  sed 's#/usr/local/bin/motionlog#$(BINDIR)/motionlog#' systemd/$$u > $(DESTDIR)$(UNITDIR)/$$u; chmod 0644 $(DESTDIR)$(UNITDIR)/$$u; done
	install -m 0644 systemd/motionlog-upload.timer $(DESTDIR)$(UNITDIR)/
	install -m 0644 udev/60-motionlog.rules udev/61-motionlog-gps.rules udev/62-motionlog-offload.rules $(DESTDIR)$(UDEVDIR)/
	install -m 0644 systemd/motionlog.sysusers $(DESTDIR)$(SYSUSERSDIR)/motionlog.conf
	@if [ -e $(DESTDIR)$(CONFDIR)/config.yaml ]; then \
	  echo "Keeping the existing $(DESTDIR)$(CONFDIR)/config.yaml (the shipped one is config/config.yaml)"; \
	else install -m 0644 config/config.yaml $(DESTDIR)$(CONFDIR)/config.yaml; fi
	@if [ -z "$(DESTDIR)" ]; then \
	  if command -v systemd-sysusers >/dev/null; then systemd-sysusers $(SYSUSERSDIR)/motionlog.conf; fi; \
	  if command -v udevadm >/dev/null; then udevadm control --reload && udevadm trigger --subsystem-match=i2c-dev --subsystem-match=gpio || true; fi; \
	  if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi; \
	  echo "Installed. Start at boot: sudo systemctl enable --now motionlog; control: motionlog status (group motionlog)"; \
	fi

# Optional: lets the service user power off after a long press (daemon.shutdown_command).
install-poweroff-rule:
	install -d $(DESTDIR)$(POLKITDIR)
	install -m 0644 systemd/motionlog-poweroff.rules $(DESTDIR)$(POLKITDIR)/50-motionlog-poweroff.rules

# Removes what install put there. Recordings in $(STATEDIR) are never deleted; the config
# is removed only when unchanged.
uninstall:
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl disable --now motionlog 2>/dev/null || true; fi
	rm -f $(DESTDIR)$(BINDIR)/motionlog
	rm -f $(DESTDIR)$(BASHCOMPDIR)/motionlog $(DESTDIR)$(ZSHCOMPDIR)/_motionlog $(DESTDIR)$(FISHCOMPDIR)/motionlog.fish
	rm -rf $(DESTDIR)$(SHAREDIR) $(DESTDIR)$(DOCDIR)
	rm -f $(DESTDIR)$(UNITDIR)/motionlog.service $(DESTDIR)$(UNITDIR)/motionlog-offload@.service \
	  $(DESTDIR)$(UNITDIR)/motionlog-upload.service $(DESTDIR)$(UNITDIR)/motionlog-upload.timer
	rm -f $(DESTDIR)$(UDEVDIR)/60-motionlog.rules $(DESTDIR)$(UDEVDIR)/61-motionlog-gps.rules $(DESTDIR)$(UDEVDIR)/62-motionlog-offload.rules
	rm -f $(DESTDIR)$(SYSUSERSDIR)/motionlog.conf $(DESTDIR)$(POLKITDIR)/50-motionlog-poweroff.rules
	@if cmp -s config/config.yaml $(DESTDIR)$(CONFDIR)/config.yaml; then \
	  rm -f $(DESTDIR)$(CONFDIR)/config.yaml; rmdir $(DESTDIR)$(CONFDIR) 2>/dev/null || true; \
	elif [ -e $(DESTDIR)$(CONFDIR)/config.yaml ]; then echo "Kept $(DESTDIR)$(CONFDIR)/config.yaml (changed locally)"; fi
	@if [ -z "$(DESTDIR)" ]; then \
	  if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi; \
	  if command -v udevadm >/dev/null; then udevadm control --reload || true; fi; \
	fi
	@echo "Recordings in $(STATEDIR) and the user motionlog were kept."

clean:
	rm -rf .build
