# The README's commands. `make test` is what CI runs (.ci/run, which runs each target below on its own and times it).

.PHONY: test fmt test-library test-examples test-store-etcd test-kapitest test-kapitest-range test-hack bench server

# Each module's tests run under the race detector, then one iteration of every benchmark (so none can rot) without it:
# benchmarks fill stores of thousands of objects, which the race detector makes several times slower. -timeout is per test binary (package) and sized for two cores that other work keeps busy: Go's default of
# 10 minutes is not enough for examples/e2e under load. It only bounds a hang: the tests' own deadlines scale with the
# work they do. Override one with e.g. `make test TIMEOUT_EXAMPLES=90m`.
GOTEST = go test -race -count=1
GOBENCH = go test -count=1 -run='^$$' -bench=. -benchtime=1x
TIMEOUT_LIBRARY ?= 25m
TIMEOUT_EXAMPLES ?= 50m
TIMEOUT_STORE_ETCD ?= 25m
TIMEOUT_KAPITEST ?= 25m
TIMEOUT_HACK ?= 15m

# Every test of every module: gofmt, vet, the race detector on all but hack (the examples run real kubectl and
# client-go against in-process servers), fuzz seed corpora, benchmarks once, and hack's offline tests (difftest,
# perfcompare, and the check that every module requires the same version of each shared dependency).
test: fmt test-library test-examples test-store-etcd test-kapitest test-kapitest-range test-hack

# gofmt's list goes to stderr as it is (no `tee /dev/stderr`: that reopens a redirected stderr and truncates the log).
fmt:
	@files="$$(gofmt -l .)"; if [ -n "$$files" ]; then echo "gofmt -l: not formatted:" >&2; echo "$$files" >&2; exit 1; fi

test-library:
	go vet ./...
	$(GOTEST) -timeout=$(TIMEOUT_LIBRARY) ./...
	$(GOBENCH) -timeout=$(TIMEOUT_LIBRARY) ./...

test-examples:
	cd examples && go vet ./... && $(GOTEST) -timeout=$(TIMEOUT_EXAMPLES) ./... && $(GOBENCH) -timeout=$(TIMEOUT_EXAMPLES) ./...

test-store-etcd:
	cd store/etcd && go vet ./... && $(GOTEST) -timeout=$(TIMEOUT_STORE_ETCD) ./... && $(GOBENCH) -timeout=$(TIMEOUT_STORE_ETCD) ./...

test-kapitest:
	cd kapitest && go vet ./... && $(GOTEST) -timeout=$(TIMEOUT_KAPITEST) ./... && $(GOBENCH) -timeout=$(TIMEOUT_KAPITEST) ./...

# The kit at both ends of its supported range: test-kapitest runs it at the oldest set (kapitest/go.mod); this runs it
# at the newest, and checks that adopting it at either end moves none of a user's versions (kapitest/compat).
test-kapitest-range:
	kapitest/compat/test.sh newest -timeout=$(TIMEOUT_KAPITEST)
	kapitest/compat/adopt.sh oldest
	kapitest/compat/adopt.sh newest

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
