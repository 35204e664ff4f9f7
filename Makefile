# motionlog — quick start: `make demo`, then `make test`.
SWIFT   ?= swift
PREFIX  ?= /usr/local
DESTDIR ?=
# System packages: I2C and gpsd client libraries to build; gpsd and a GPX parser for tests.
APT_PACKAGES := libi2c-dev libgps-dev gpsd gpsd-clients python3-gpxpy
# Benchmarks (make bench): C baselines are compiled with gcc, callgrind needs valgrind and
# strip (binutils), the csv.writer baseline python3. BENCH_ARGS go to motionlog-bench,
# e.g. make bench BENCH_ARGS="--quick" or BENCH_ARGS="--only format --json /tmp/r.json".
BENCH_APT_PACKAGES := valgrind python3 gcc binutils
BENCH_ARGS ?=
DEMO_OUT := ./recordings

.PHONY: all deps build demo test bench install uninstall clean

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

build: deps
	$(SWIFT) build -c release --product motionlog

demo: build
	@rm -rf $(DEMO_OUT)/.demo && mkdir -p $(DEMO_OUT)
	@echo "Recording 10 s of a simulated bike ride..."
	@./.build/release/motionlog record --board simulator --duration 10 --out $(DEMO_OUT) --quiet > .build/demo-summary.txt
	@cat .build/demo-summary.txt
	@newest=$$(grep -o '$(DEMO_OUT)/[0-9-]*\.csv' .build/demo-summary.txt | tail -n 1); \
	echo; echo "The CSV went to: $$newest (metadata beside it: $${newest%.csv}.json)"; echo; \
	./.build/release/motionlog check $$newest

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

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
	$(SWIFT) build -c release
	./.build/release/motionlog-bench $(BENCH_ARGS)

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/motionlog/boards
	install -m 0755 .build/release/motionlog $(DESTDIR)$(PREFIX)/bin/motionlog
	install -m 0644 boards/*.yaml $(DESTDIR)$(PREFIX)/share/motionlog/boards/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/motionlog
	rm -rf $(DESTDIR)$(PREFIX)/share/motionlog

clean:
	rm -rf .build
