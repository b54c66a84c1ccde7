# mdgate: the operator's entry point. On a fresh Debian 12 host (as root), `make demo` and `make test` install
# what they need (deploy/setup.sh, idempotent) and build with Maven before doing their work.
#
# Variables: MVN_FLAGS (extra Maven flags, e.g. -o for offline), DEMO_DIR, DEMO_ARGS (e.g. "--duration 20 --json"),
# BENCH (JMH regexp), BENCH_ARGS (extra JMH options, e.g. "-f 1 -wi 2 -i 3"), BENCH_DIR, E2E_RATES, E2E_SECONDS,
# LATENCY_RATES, LATENCY_SECONDS, LATENCY_IDLE.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

MVN       ?= mvn
MVN_FLAGS ?=
MAVEN     := $(MVN) -B --no-transfer-progress $(MVN_FLAGS)
JAVA      := $(if $(JAVA_HOME),$(JAVA_HOME)/bin/java,java)
JVM_FLAGS  = $$(cat gateway-app/target/jvm.options)

# Tags of the tests `make test-unit` leaves out: long runs, network namespaces and hugetlbfs mounts (root), the
# Soft-RoCE guest.
UNIT_EXCLUDED_TAGS := slow,netns,hugepages,softroce

DEMO_DIR  ?= target/demo
DEMO_ARGS ?=

# make dist: the tarball's name and where it is staged.
VERSION  := $(shell sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -1)
DIST_DIR := target/dist/mdgate-$(VERSION)

# make bench-end-to-end: the offered rates (msg/s, one step each, the host's highest loss-free one is found among them)
# and the seconds of each step; results and plots go to docs/bench/e2e/.
E2E_RATES   ?= 100000 250000 500000 1000000
E2E_SECONDS ?= 20

# make bench-latency (also the end of bench-end-to-end): wire-to-consumer latency, run-to-completion vs pipeline vs
# the two-thread floor, per offered rate; the measuring consumer's idle strategy; results in docs/bench/e2e-latency/.
LATENCY_RATES   ?= 10000 100000 500000
LATENCY_SECONDS ?= 10
LATENCY_IDLE    ?= yield

BENCH      ?= .
BENCH_ARGS ?=
BENCH_DIR  ?= target/bench

# Soft-RoCE guest (deploy/softroce, docs/SOFTROCE.md): image cache, hard time limit of one guest run, the
# staging directory of the project's payload (deploy/softroce/tests/stage.sh: test jars, console launcher,
# jars, every module's target/native libraries), and extra shared libraries for the guest.
export MDGATE_SOFTROCE_CACHE ?= /var/cache/mdgate/softroce
SOFTROCE_TIMEOUT ?= 1500
SOFTROCE_STAGE   ?= target/softroce-tests
SOFTROCE_NATIVE  ?=

# The guest run of the tests tagged softroce and the verbs benchmark over an already built tree: stage the
# payload, build the image if due, boot (results in target/softroce/<UTC time>, linked as latest).
SOFTROCE_RUN = deploy/softroce/run.sh --payload $(SOFTROCE_STAGE)/payload --timeout $(SOFTROCE_TIMEOUT) \
    --lib $(SOFTROCE_STAGE)/lib --native $(SOFTROCE_STAGE)/native \
    --jvm-options gateway-app/target/jvm.options $(foreach n,$(SOFTROCE_NATIVE),--native $(n))
# The two-host bed (deploy/softroce/run-pair.sh): two guests on one virtual segment, `mdgate run` over verbs on one,
# the consumers on the other (results in target/softroce-pair/<UTC time>, linked as latest).
SOFTROCE_PAIR_RUN = deploy/softroce/run-pair.sh --timeout $(SOFTROCE_PAIR_TIMEOUT) \
    --lib $(SOFTROCE_STAGE)/lib --native $(SOFTROCE_STAGE)/native \
    --jvm-options gateway-app/target/jvm.options $(foreach n,$(SOFTROCE_NATIVE),--native $(n))
SOFTROCE_PAIR_TIMEOUT ?= 1500
# The unit test (deploy/systemd/test-unit.sh, docs/OPERATIONS.md "The unit"): the debootstrap rootfs its
# systemd-nspawn container boots, built once and cached.
export MDGATE_NSPAWN_CACHE ?= /var/cache/mdgate/nspawn
TEST_SYSTEMD = deploy/systemd/test-unit.sh --tarball target/mdgate-$(VERSION).tar.gz

define softroce_prepare
deploy/softroce/tests/stage.sh $(SOFTROCE_STAGE)
deploy/softroce/build-image.sh
endef

.PHONY: help setup build test test-unit test-systemd test-softroce test-softroce-pair test-softroce-smoke demo dist bench bench-end-to-end bench-latency bench-ingress clean

help: ## List the targets.
	@echo "mdgate make targets (README.md explains each):"
	@grep -E '^[a-z-]+:.*## ' $(firstword $(MAKEFILE_LIST)) | sed -E 's/^([a-z-]+):.*## /  make \1\t/' | expand -t 20

setup: ## Install the OS packages mdgate needs (deploy/setup.sh; root installs, others get told what is missing).
	deploy/setup.sh

build: setup ## Build every module, tests compiled but not run.
	$(MAVEN) -DskipTests package

test: setup ## Every test suite: the host's (all tags but softroce), the systemd unit's, the Soft-RoCE guest's, the two-host bed (what .ci/run does).
	@echo "test: host suite (mvn verify, every tag; softroce runs in the guest below)"
	$(MAVEN) verify -Dmdgate.test.groups= -Dmdgate.test.excludedGroups=
	@echo "test: host suite passed; the unit (the dist installed and mdgate@.service started under systemd in systemd-nspawn)"
	$(MAKE) --no-print-directory dist
	$(TEST_SYSTEMD)
	@echo "test: unit passed; Soft-RoCE guest run (tests tagged softroce, perftest, VerbsBenchmark)"
	$(softroce_prepare)
	out=target/softroce/$$(date -u +%Y%m%d-%H%M%S); rc=0; \
	$(SOFTROCE_RUN) --out $$out || rc=$$?; \
	if [[ -d $$out ]]; then ln -sfn $$(basename $$out) target/softroce/latest; fi; \
	deploy/softroce/tests/test-summary.sh $$out $$rc
	@echo "test: two-host bed (mdgate run over verbs on guest a, consumers on guest b; the link cut, a consumer and the gateway killed mid-stream)"
	pair=target/softroce-pair/$$(date -u +%Y%m%d-%H%M%S); rc=0; $(SOFTROCE_PAIR_RUN) --out $$pair || rc=$$?; \
	if [[ -d $$pair ]]; then ln -sfn $$(basename $$pair) target/softroce-pair/latest; fi; exit $$rc

test-unit: setup ## Build and run the quick tests (no slow, netns or softroce tags).
	$(MAVEN) verify -Dmdgate.test.excludedGroups=$(UNIT_EXCLUDED_TAGS)

test-systemd: dist ## The dist installed in a systemd-nspawn container, mdgate@.service started and checked (root; rootfs cached).
	$(TEST_SYSTEMD)

test-softroce: setup ## Only the Soft-RoCE guest run: tests tagged softroce, perftest vs VerbsBenchmark (image built once, cached).
	$(MAVEN) -DskipTests -pl gateway-app -am package
	$(softroce_prepare)
	$(SOFTROCE_RUN)

test-softroce-pair: setup ## Only the two-host guest run: `mdgate run` over verbs on one guest, consumers on another.
	$(MAVEN) -DskipTests -pl gateway-app -am package
	$(softroce_prepare)
	pair=target/softroce-pair/$$(date -u +%Y%m%d-%H%M%S); rc=0; $(SOFTROCE_PAIR_RUN) --out $$pair || rc=$$?; \
	if [[ -d $$pair ]]; then ln -sfn $$(basename $$pair) target/softroce-pair/latest; fi; exit $$rc

test-softroce-smoke: setup ## The Soft-RoCE bed's own smoke test in the guest (devices, perftest, multicast, JRE).
	$(MAVEN) -DskipTests -pl gateway-app -am package
	deploy/softroce/build-image.sh
	deploy/softroce/run.sh --payload deploy/softroce/smoke --timeout $(SOFTROCE_TIMEOUT) \
	    --lib gateway-app/target/gateway-app.jar --lib gateway-app/target/lib \
	    --jvm-options gateway-app/target/jvm.options $(foreach n,$(SOFTROCE_NATIVE),--native $(n))

demo: setup ## The whole chain on this host for ~30 s: simulator -> gateway -> journal + 4 consumers, dashboard, summary.
	$(MAVEN) -DskipTests -pl gateway-app -am package
	./mdgate demo --dir $(DEMO_DIR) $(DEMO_ARGS)

dist: setup ## Package an installation tarball (bin/ lib/ native/ include/ share/ conf/ systemd/) as target/mdgate-VERSION.tar.gz.
	$(MAVEN) -DskipTests -pl gateway-app,consumer-c -am package
	rm -rf $(DIST_DIR) && mkdir -p $(DIST_DIR)/{bin,lib,native,include,share,conf,systemd,docs}
	install -m 755 deploy/dist/mdgate deploy/dist/mdgate-install $(DIST_DIR)/bin/
	cp gateway-app/target/gateway-app.jar gateway-app/target/lib/*.jar $(DIST_DIR)/lib/
	cp gateway-app/target/jvm.options $(DIST_DIR)/conf/
	find dpdk-ingress/target/native rdma-egress/target/native -maxdepth 1 -name '*.so' \
	    -exec cp {} $(DIST_DIR)/native/ \; 2>/dev/null || true
	# The C consumer SDK: the library beside the JNI ones, its C, C++ and generated SBE headers, its programs (they
	# find the library through their rpath $$ORIGIN/../native), and the tick schema for other code generators.
	cp consumer-c/target/native/lib/libmdgate-consumer.so $(DIST_DIR)/native/
	cp -R consumer-c/target/native/include/mdgate $(DIST_DIR)/include/
	install -m 755 consumer-c/target/native/bin/* $(DIST_DIR)/bin/
	install -m 644 gateway-core/src/main/resources/sbe/mdgate-tick-schema.xml $(DIST_DIR)/share/
	if [[ -d deploy/conf ]]; then cp deploy/conf/*.toml $(DIST_DIR)/conf/; fi
	if [[ -f deploy/tune-host.sh ]]; then install -m 755 deploy/tune-host.sh $(DIST_DIR)/bin/; fi
	cp deploy/systemd/*.service $(DIST_DIR)/systemd/
	cp docs/*.md $(DIST_DIR)/docs/
	$(JAVA) $(JVM_FLAGS) -cp "$(DIST_DIR)/lib/*" picocli.AutoComplete --force --name mdgate \
	    --completionScript $(DIST_DIR)/bin/mdgate-completion.bash io.mdgate.app.Main
	$(DIST_DIR)/bin/mdgate --version >/dev/null
	$(DIST_DIR)/bin/mdgate-consume-c --help >/dev/null
	tar -C $(dir $(DIST_DIR)) -czf target/mdgate-$(VERSION).tar.gz $(notdir $(DIST_DIR))
	@echo "dist: target/mdgate-$(VERSION).tar.gz (unpack into /opt, run bin/mdgate-install; docs/OPERATIONS.md, 'Installing')"

bench: setup ## JMH benchmarks (results under target/bench/), then the end-to-end benchmark (root; bench-end-to-end).
	$(MAVEN) -DskipTests -pl benchmarks,gateway-app -am package
	@count=$$($(JAVA) -jar benchmarks/target/benchmarks.jar -l '$(BENCH)' | tail -n +2 | grep -c . || true); \
	if [[ $$count -eq 0 ]]; then echo "bench: no JMH benchmark matches '$(BENCH)' in benchmarks/" >&2; exit 1; fi
	@run=$(BENCH_DIR)/$$(date -u +%Y%m%d-%H%M%S); mkdir -p $$run; \
	{ echo "date: $$(date -u +%FT%TZ)"; echo "host: $$(uname -srm), $$(nproc) CPUs"; \
	  grep -m1 'model name' /proc/cpuinfo || true; $(JAVA) -version 2>&1 | head -1; \
	  echo "jvm flags: $(JVM_FLAGS)"; echo "jmh: $(BENCH_ARGS) '$(BENCH)'"; } > $$run/machine.txt; \
	cat $$run/machine.txt; \
	$(JAVA) $(JVM_FLAGS) -jar benchmarks/target/benchmarks.jar $(BENCH_ARGS) \
	    -rf json -rff $$run/jmh.json '$(BENCH)' | tee $$run/jmh.txt; \
	ln -sfn $$(basename $$run) $(BENCH_DIR)/latest; \
	echo "bench: results in $$run (also $(BENCH_DIR)/latest)"
	@if [[ $$(id -u) -eq 0 ]]; then $(MAKE) --no-print-directory bench-end-to-end; \
	else echo "bench: end-to-end part not run: it needs root (network namespaces, DPDK af_packet)"; fi

bench-end-to-end: setup ## End to end (root): loss-free rate per rate of E2E_RATES (docs/bench/e2e/), then bench-latency's table.
	$(MAVEN) -DskipTests -pl benchmarks,gateway-app -am package
	RATES="$(E2E_RATES)" STEP_SECONDS=$(E2E_SECONDS) LATENCY_RATES="$(LATENCY_RATES)" \
	    LATENCY_SECONDS=$(LATENCY_SECONDS) LATENCY_IDLE=$(LATENCY_IDLE) benchmarks/e2e-lossfree.sh

bench-latency: setup ## Wire-to-consumer latency (root): run-to-completion vs pipeline vs a 2-thread floor; docs/bench/e2e-latency/.
	$(MAVEN) -DskipTests -pl benchmarks,gateway-app -am package
	RATES="$(LATENCY_RATES)" STEP_SECONDS=$(LATENCY_SECONDS) IDLE=$(LATENCY_IDLE) benchmarks/e2e-latency.sh

bench-ingress: setup ## Highest loss-free rate, af_xdp vs kernel-socket ingress on one veth pair (root; not in `make test`).
	$(MAVEN) -DskipTests -pl gateway-app -am package
	benchmarks/ingress-lossfree.sh

clean: ## Remove every build output (module target/ folders, demo and bench results).
	$(MAVEN) -q clean
	rm -rf target
