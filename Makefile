# The README's commands. `make test` is what CI runs (.ci/run, which runs each target below on its own and times it).

.PHONY: test fmt test-library test-examples test-store-etcd test-kapitest test-hack bench server

# Each module's test binaries are built once, under the race detector, and run every test and then one iteration of
# every benchmark (so none can rot): one build per module, not a race build for the tests and a plain one for the
# benchmarks. -timeout is per test binary (package) and sized for two cores that other work keeps busy: Go's default of
# 10 minutes is not enough for examples/e2e under load. It only bounds a hang: the tests' own deadlines scale with the
# work they do. Override one with e.g. `make test TIMEOUT_EXAMPLES=90m`.
GOTEST = go test -race -count=1 -bench=. -benchtime=1x
TIMEOUT_LIBRARY ?= 25m
TIMEOUT_EXAMPLES ?= 50m
TIMEOUT_STORE_ETCD ?= 25m
TIMEOUT_KAPITEST ?= 25m
TIMEOUT_HACK ?= 15m

# Every test of every module: gofmt, vet, the race detector on all but hack (the examples run real kubectl and
# client-go against in-process servers), fuzz seed corpora, benchmarks once, and hack's offline tests (difftest,
# perfcompare, and the check that every module requires the same version of each shared dependency).
test: fmt test-library test-examples test-store-etcd test-kapitest test-hack

# gofmt's list goes to stderr as it is (no `tee /dev/stderr`: that reopens a redirected stderr and truncates the log).
fmt:
	@files="$$(gofmt -l .)"; if [ -n "$$files" ]; then echo "gofmt -l: not formatted:" >&2; echo "$$files" >&2; exit 1; fi

test-library:
	go vet ./...
	$(GOTEST) -timeout=$(TIMEOUT_LIBRARY) ./...

test-examples:
	cd examples && go vet ./... && $(GOTEST) -timeout=$(TIMEOUT_EXAMPLES) ./...

test-store-etcd:
	cd store/etcd && go vet ./... && $(GOTEST) -timeout=$(TIMEOUT_STORE_ETCD) ./...

test-kapitest:
	cd kapitest && go vet ./... && $(GOTEST) -timeout=$(TIMEOUT_KAPITEST) ./...

test-hack:
	cd hack && go vet ./... && go test -count=1 -timeout=$(TIMEOUT_HACK) ./...

# Benchmarks with their baselines, benchstat-friendly (pipe to a file and
# compare with benchstat).
bench:
	go test -run='^$$' -bench=. -benchmem -count=6 ./...
	cd examples && go test -run='^$$' -bench=. -benchmem -count=6 ./...
	cd store/etcd && go test -run='^$$' -bench=. -benchmem -count=6 ./...
	cd kapitest && go test -run='^$$' -bench=. -benchmem -count=6 ./...

server:
	go run -C examples ./server
