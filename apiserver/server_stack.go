package apiserver

// A request's goroutine grows its stack once, at the top of the handler.
//
// Go starts every goroutine with a small stack (2 KiB, or the average the
// runtime has seen) and doubles it when a call does not fit, copying the
// whole stack and adjusting every frame on it each time. HTTP/2 serves each
// request on a new goroutine, so a request through the filters, admission,
// field management and encoding pays two or three such copies, the later
// ones with twenty or more frames to walk: in CPU profiles of the cost
// ladder (examples/bench) runtime.newstack took a third of the server's
// own time for a GET over HTTP/2 and about a tenth for a create. Calling a
// function with a large frame first makes the runtime grow the stack at
// once to a size that holds the whole request, while it holds a handful of
// frames: one cheap copy instead of several dear ones. HTTP/1.1 serves a
// connection's requests on one goroutine, whose stack the garbage collector
// may shrink between requests; there the reservation costs only clearing
// its frame when the stack is already large enough.

// stackReserve is the frame reserveStack takes: with the few frames below
// it the runtime grows a new goroutine's stack to 16 KiB, the largest size
// it keeps per-processor caches of, and enough for the request paths seen
// in profiles.
const stackReserve = 8 << 10

// stackIndex is read at run time so the compiler keeps reserveStack's frame.
var stackIndex int

// reserveStack grows the calling goroutine's stack to hold stackReserve
// bytes more.
//
//go:noinline
func reserveStack() byte {
	var pad [stackReserve]byte
	return pad[stackIndex]
}
