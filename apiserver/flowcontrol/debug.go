package flowcontrol

import (
	"net/http"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/flowcontrol/fairqueue"
	"github.com/kapi-dev/kapi/apiserver/requestinfo"
	"github.com/kapi-dev/kapi/meta"
)

// serveDebug serves kube's three flow control dumps, comma-separated
// columns aligned with a tabwriter: one row per priority level, per queue
// or per request (with ?includeRequestDetails=1 the user and request info
// too). Levels come in name order (kube's order is a map's).
func (c *Controller) serveDebug(w http.ResponseWriter, r *http.Request) {
	w.Header()["Cache-Control"] = cacheControl
	var dump func(*tabwriter.Writer, *http.Request)
	switch strings.TrimPrefix(r.URL.Path, DebugPathPrefix) {
	case "dump_priority_levels":
		dump = c.dumpPriorityLevels
	case "dump_queues":
		dump = c.dumpQueues
	case "dump_requests":
		dump = c.dumpRequests
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	tw := tabwriter.NewWriter(w, 8, 0, 1, ' ', 0)
	dump(tw, r)
	_ = tw.Flush()
}

func row(tw *tabwriter.Writer, columns ...string) {
	_, _ = tw.Write([]byte(strings.Join(columns, ",\t")))
}

func endRow(tw *tabwriter.Writer) { _, _ = tw.Write([]byte("\n")) }

func (c *Controller) dumpPriorityLevels(tw *tabwriter.Writer, _ *http.Request) {
	row(tw, "PriorityLevelName", "ActiveQueues", "IsIdle", "IsQuiescing", "WaitingRequests", "ExecutingRequests",
		"DispatchedRequests", "RejectedRequests", "TimedoutRequests", "CancelledRequests")
	endRow(tw)
	for _, lvl := range c.cfg.Load().levels {
		d := lvl.qs.Dump()
		active := 0
		for _, q := range d.Queues {
			if len(q.Waiting) > 0 {
				active++
			}
		}
		row(tw, lvl.name, strconv.Itoa(active), strconv.FormatBool(d.Waiting == 0 && d.Executing == 0),
			strconv.FormatBool(lvl.quiescing.Load()), strconv.Itoa(d.Waiting), strconv.Itoa(d.Executing),
			strconv.Itoa(d.Dispatched), strconv.Itoa(d.Rejected), strconv.Itoa(d.TimedOut), strconv.Itoa(d.Cancelled))
		endRow(tw)
	}
}

func (c *Controller) dumpQueues(tw *tabwriter.Writer, _ *http.Request) {
	row(tw, "PriorityLevelName", "Index", "PendingRequests", "ExecutingRequests", "SeatsInUse", "NextDispatchR",
		"InitialSeatsSum", "MaxSeatsSum", "TotalWorkSum")
	endRow(tw)
	for _, lvl := range c.cfg.Load().levels {
		for i, q := range lvl.qs.Dump().Queues {
			row(tw, lvl.name, strconv.Itoa(i), strconv.Itoa(len(q.Waiting)), strconv.Itoa(len(q.Executing)),
				strconv.Itoa(q.SeatsInUse), q.NextDispatchR.String(), strconv.Itoa(q.InitialSeatsSum),
				strconv.Itoa(q.MaxSeatsSum), q.TotalWorkSum.String())
			endRow(tw)
		}
	}
}

func (c *Controller) dumpRequests(tw *tabwriter.Writer, r *http.Request) {
	details := r.URL.Query().Get("includeRequestDetails") != ""
	row(tw, "PriorityLevelName", "FlowSchemaName", "QueueIndex", "RequestIndexInQueue", "FlowDistingsher", "ArriveTime",
		"InitialSeats", "FinalSeats", "AdditionalLatency", "StartTime")
	if details {
		_, _ = tw.Write([]byte(",\t"))
		row(tw, "UserName", "Verb", "APIPath", "Namespace", "Name", "APIVersion", "Resource", "SubResource")
	}
	endRow(tw)
	for _, lvl := range c.cfg.Load().levels {
		d := lvl.qs.Dump()
		one := func(iq, ir int, rd fairqueue.RequestDump) {
			row(tw, lvl.name, rd.FlowSchema, strconv.Itoa(iq), strconv.Itoa(ir), rd.Distinguisher,
				rd.Arrival.UTC().Format(time.RFC3339Nano), strconv.Itoa(rd.Work.InitialSeats), strconv.Itoa(rd.Work.FinalSeats),
				rd.Work.AdditionalLatency.String(), rd.StartTime.UTC().Format(time.RFC3339Nano))
			if details {
				_, _ = tw.Write([]byte(",\t"))
				var user, verb, path string
				var info requestinfo.Info
				if req, ok := rd.Details.(*http.Request); ok {
					info = requestinfo.From(req)
					u, ok := authn.UserFrom(req.Context())
					if !ok {
						u = anonymous
					}
					user, path = u.Name, req.URL.Path
					verb = newDigest(&info, u, req.Method, path).verb
				}
				gv := meta.GroupVersion{Group: info.Group, Version: info.Version}.String()
				row(tw, user, verb, path, info.Namespace, info.Name, gv, info.Resource, info.Subresource)
			}
			endRow(tw)
		}
		for iq, q := range d.Queues {
			for ir, rd := range q.Waiting {
				one(iq, ir, rd)
			}
			for _, rd := range q.Executing {
				one(iq, -1, rd)
			}
		}
		for _, rd := range d.Queueless {
			one(-1, -1, rd)
		}
	}
}
