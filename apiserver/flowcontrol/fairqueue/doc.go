// Package fairqueue is the queuing half of API Priority and Fairness: one
// QueueSet per priority level holds the requests that cannot execute yet
// and decides, each time seats free up, which one executes next.
//
// # Model
//
// A QueueSet has a concurrency limit in seats. A request asks for a
// WorkEstimate: InitialSeats while the handler runs, then FinalSeats for
// AdditionalLatency after it returns (the cost of the watch events a write
// causes). A request occupies max(InitialSeats, FinalSeats) seats from its
// dispatch until its final seats are released.
//
// A QueueSet is in one of three modes, fixed by Config.Queues:
//
//	Queues < 0   exempt: every request executes at once, seats are only counted
//	Queues == 0  reject: a request executes if its seats fit, else it is rejected
//	Queues > 0   queue:  requests are shuffle-sharded into queues and dispatched
//	             by fair queuing; a full queue rejects
//
// # Fair queuing with seats
//
// Dispatch follows kube-apiserver's "fair queuing for server requests":
// a virtual clock R advances at min(C, seats wanted)/(active queues)
// seat-seconds per second (C the concurrency limit; a queue is active while
// it has requests waiting or executing). Each queue keeps nextDispatchR, the
// virtual time at which its next request may start; dispatching a request
// adds its work (InitialSeats × an estimated 3 ms service time, plus
// FinalSeats × AdditionalLatency) and finishing corrects it by the actual
// service time. The request dispatched next is the head of the queue with
// the smallest nextDispatchR + work: queues that used less get served
// first, so each backlogged flow gets an equal share of seats whatever its
// demand. A request wider than the free seats waits (and holds up the
// others) until enough seats are free; one wider than the whole limit runs
// alone.
//
// A request's flow (flow schema name + distinguisher) is hashed; the hash
// deals a hand of HandSize queues out of Queues (shuffle sharding, Dealer)
// and the request joins the one with the least waiting work, so a heavy
// flow only fills its own few queues.
//
// # Use
//
//	req, executing := qs.StartRequest(estimate, hash, Descr{FlowSchema: "fs", Distinguisher: "alice"})
//	if req == nil { /* rejected: 429 */ }
//	if !executing && !req.Wait(ctx) { /* timed out or cancelled in queue: 429 */ }
//	serve()
//	req.Finish()
//
// # Concurrency and time
//
// All methods are safe for concurrent use; a QueueSet has one mutex and no
// goroutine of its own (releasing final seats uses Clock.AfterFunc). Time
// comes from a Clock, real by default: tests run it under testing/synctest
// or pass a fake.
package fairqueue
