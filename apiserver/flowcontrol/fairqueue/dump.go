package fairqueue

import "time"

// Dump is a QueueSet's state at one instant, for the debug endpoints.
type Dump struct {
	Queues []QueueDump
	// Queueless are the executing requests that went through no queue
	// (exempt and reject modes).
	Queueless                                    []RequestDump
	Waiting, Executing, SeatsInUse, SeatsWaiting int
	// Counters since the QueueSet was made.
	Dispatched, Rejected, TimedOut, Cancelled int
	Limit                                     int
}

// QueueDump is one queue's state.
type QueueDump struct {
	Waiting, Executing []RequestDump
	NextDispatchR      SeatSeconds
	SeatsInUse         int
	// Sums over the waiting requests.
	InitialSeatsSum, MaxSeatsSum int
	TotalWorkSum                 SeatSeconds
}

// RequestDump is one request's state; StartTime is zero for a request
// still waiting.
type RequestDump struct {
	FlowSchema, Distinguisher string
	Details                   any
	Arrival, StartTime        time.Time
	Work                      WorkEstimate
}

// Dump returns the QueueSet's state.
func (qs *QueueSet) Dump() Dump {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	d := Dump{
		Queues:  make([]QueueDump, len(qs.queues)),
		Waiting: qs.waiting, Executing: qs.executing, SeatsInUse: qs.seatsInUse, SeatsWaiting: qs.seatsWaiting,
		Dispatched: qs.dispatched, Rejected: qs.rejected, TimedOut: qs.timedOut, Cancelled: qs.cancelled,
		Limit:     qs.limit,
		Queueless: dumpList(&qs.queueless),
	}
	for i, q := range qs.queues {
		d.Queues[i] = QueueDump{
			Waiting: dumpList(&q.waiting), Executing: dumpList(&q.executing),
			NextDispatchR: q.nextDispatchR, SeatsInUse: q.seatsInUse,
			InitialSeatsSum: q.sumInitial, MaxSeatsSum: q.sumMax, TotalWorkSum: q.sumWork,
		}
	}
	return d
}

func dumpList(l *reqList) []RequestDump {
	var out []RequestDump
	for r := l.head; r != nil; r = r.next {
		out = append(out, RequestDump{FlowSchema: r.descr.FlowSchema, Distinguisher: r.descr.Distinguisher,
			Details: r.descr.Details, Arrival: r.arrival, StartTime: r.start, Work: r.work})
	}
	return out
}
