# The README's commands. `make test` is what CI runs (.ci/run).

.PHONY: test bench server

# Every test of both modules: vet, the race detector on the library and the
# examples (real kubectl and client-go against in-process servers), fuzz seed
# corpora, and one iteration of every benchmark so none can rot.
test:
	test -z "$$(gofmt -l . | tee /dev/stderr)"
	go vet ./...
	go test -race -count=1 ./...
	go test -count=1 -run='^$$' -bench=. -benchtime=1x ./...
	cd examples && go vet ./... && go test -race -count=1 ./... && go test -count=1 -run='^$$' -bench=. -benchtime=1x ./...

# Benchmarks with their baselines, benchstat-friendly (pipe to a file and
# compare with benchstat).
bench:
	go test -run='^$$' -bench=. -benchmem -count=6 ./...
	cd examples && go test -run='^$$' -bench=. -benchmem -count=6 ./...

server:
	go run -C examples ./server
