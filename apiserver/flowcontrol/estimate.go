package flowcontrol

import (
	"math"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/kapi-dev/kapi/apiserver/flowcontrol/fairqueue"
	"github.com/kapi-dev/kapi/apiserver/requestinfo"
	"github.com/kapi-dev/kapi/selectors"
)

// Kube's work estimator parameters.
const (
	minimumSeats            = 1
	maximumSeatsLimit       = 10
	objectsPerSeat          = 100.0
	watchesPerSeat          = 10.0
	eventAdditionalDuration = 5 * time.Millisecond
)

// estimate is a request's expected work, as kube's work estimator puts it:
// a LIST takes a seat per 100 objects it reads (up to the level's maximum,
// at most 10), a write adds final seats for the watches it notifies
// (one per 10, held 5 ms each), a WATCH takes one seat (for its initial
// events only: see WatchInitialized), anything else one seat.
func (c *Controller) estimate(r *http.Request, info *requestinfo.Info, lvl *levelBinding, s *series) fairqueue.WorkEstimate {
	maxSeats := int(lvl.maxSeats.Load())
	if maxSeats == 0 || maxSeats > maximumSeatsLimit {
		maxSeats = maximumSeatsLimit
	}
	if !info.IsResource {
		return fairqueue.WorkEstimate{InitialSeats: minimumSeats}
	}
	switch info.Verb {
	case "list":
		return fairqueue.WorkEstimate{InitialSeats: c.listSeats(r.URL.Query(), info, maxSeats)}
	case "create", "update", "patch", "delete":
		return c.mutatingWork(info, maxSeats, s)
	}
	// A WATCH costs what a LIST would only with the WatchList feature,
	// which kube 1.33 leaves off.
	return fairqueue.WorkEstimate{InitialSeats: minimumSeats}
}

func (c *Controller) listSeats(q url.Values, info *requestinfo.Info, maxSeats int) int {
	fieldSelector := q.Get("fieldSelector")
	if fieldSelector != "" {
		// A list of one named object is a get in storage.
		if sel, err := selectors.ParseFieldSelector(fieldSelector); err == nil {
			if name, ok := sel.RequiresExactMatch("metadata.name"); ok && name != "" {
				return minimumSeats
			}
		}
	}
	var limit int64
	if v := q.Get("limit"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return maxSeats // bound to fail validation
		}
		limit = n
	}
	if c.deps.ObjectCount == nil {
		return minimumSeats
	}
	stored, ok := c.deps.ObjectCount(info.Group, info.Resource)
	if !ok {
		return minimumSeats
	}
	n := stored
	if limit > 0 && limit < stored {
		n = limit
	}
	var objects int64
	switch {
	case listFromCache(q, limit):
		objects = stored
	case fieldSelector != "" || q.Get("labelSelector") != "":
		objects = stored + n
	default:
		objects = 2 * n
	}
	seats := int(math.Ceil(float64(objects) / objectsPerSeat))
	return max(minimumSeats, min(seats, maxSeats))
}

// listFromCache tells whether kube would serve a list from its watch cache
// (reading every object of the resource) rather than from etcd (reading a
// page): consistent reads and resourceVersion "0" or NotOlderThan come
// from the cache, exact and paged reads from etcd.
func listFromCache(q url.Values, limit int64) bool {
	rv := q.Get("resourceVersion")
	switch q.Get("resourceVersionMatch") {
	case "NotOlderThan":
		return true
	case "":
		if q.Get("continue") != "" {
			return false
		}
		if limit > 0 && rv != "" && rv != "0" {
			return false
		}
		return true
	}
	return false
}

func (c *Controller) mutatingWork(info *requestinfo.Info, maxSeats int, s *series) fairqueue.WorkEstimate {
	if info.Resource == "serviceaccounts" && info.Subresource == "token" {
		return fairqueue.WorkEstimate{InitialSeats: minimumSeats} // notifies no watch
	}
	watches := c.watches.interested(info)
	s.watchCount.observe(float64(watches))
	we := fairqueue.WorkEstimate{InitialSeats: 1}
	if watches >= int(watchesPerSeat) {
		final := int(math.Ceil(float64(watches) / watchesPerSeat))
		work := fairqueue.SeatsTimesDuration(float64(final), eventAdditionalDuration)
		final = min(final, maxSeats)
		we.FinalSeats, we.AdditionalLatency = final, work.DurationPerSeat(float64(final))
	}
	return we
}
