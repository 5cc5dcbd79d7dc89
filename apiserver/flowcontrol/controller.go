package flowcontrol

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kapi-dev/kapi/apiserver/flowcontrol/fairqueue"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// Options configures flow control. Zero values mean kube-apiserver's
// defaults.
type Options struct {
	// MaxRequestsInFlight and MaxMutatingRequestsInFlight add up to the
	// server's concurrency limit (ServerCL), shared among the priority
	// levels: kube's --max-requests-inflight (400) and
	// --max-mutating-requests-inflight (200).
	MaxRequestsInFlight         int
	MaxMutatingRequestsInFlight int
	// RequestWaitLimit is how long a request without a deadline may wait
	// in its queue (a request with one waits a quarter of the time it has
	// left); at most a minute. 0 means 15 s, a quarter of kube's default
	// request timeout.
	RequestWaitLimit time.Duration
	// Clock is the time flow control runs on; nil means the real clock.
	Clock fairqueue.Clock
	// Context bounds the background work (following the configuration
	// objects, the periodic borrowing adjustment, keeping the bootstrap
	// objects in place): it stops when the context is done. Nil runs it
	// for the life of the process.
	Context context.Context
}

// Deps is what flow control needs from the server it guards.
type Deps struct {
	// Store holds the configuration objects (v1), read and watched.
	Store store.Store
	// PriorityLevelPrefix and FlowSchemaPrefix are the store key prefixes
	// of the two kinds; empty means
	// "/flowcontrol.apiserver.k8s.io/prioritylevelconfigurations/" and
	// "/flowcontrol.apiserver.k8s.io/flowschemas/".
	PriorityLevelPrefix, FlowSchemaPrefix string
	// Client writes the bootstrap objects and the schemas' status through
	// the server's write path; nil writes nothing (flow control then runs
	// on what is stored, and on the mandatory configuration where that is
	// missing).
	Client Client
	// ObjectCount, when set, tells how many objects of a resource are
	// stored (ok false when unknown), for the cost of a LIST.
	ObjectCount func(group, resource string) (n int64, ok bool)
}

// Kube's constants for the periodic adjustment of concurrency limits.
const (
	borrowingAdjustmentPeriod      = 10 * time.Second
	seatDemandSmoothingCoefficient = 0.977
	maxSeatsFraction               = 0.15
)

// Field managers of the writes flow control makes, as kube names them.
const (
	ConfigProducerFieldManager = "api-priority-and-fairness-config-producer-v1"
	ConfigConsumerFieldManager = "api-priority-and-fairness-config-consumer-v1"
)

// Controller is API Priority and Fairness for one server: it follows the
// configuration objects, keeps the bootstrap ones in place, and its Filter
// classifies, queues and admits requests.
type Controller struct {
	opts     Options
	deps     Deps
	clock    fairqueue.Clock
	serverCL int
	metrics  *metrics
	dropped  droppedRequests
	watches  watchTracker

	cfg  atomic.Pointer[config]
	kick chan struct{}

	// mu serialises digests and limit adjustments and guards the levels'
	// mutable state.
	mu           sync.Mutex
	levels       map[string]*level
	nominalCLSum int
	fairFrac     float64
	// recentStatusWrites remembers the schemas whose status was written,
	// newest first, to write none more than six times a minute.
	recentStatusWrites []statusWrite
	started            atomic.Bool
}

type statusWrite struct {
	at    time.Time
	names []string
}

// config is one digested configuration, swapped atomically: requests read
// it without locking.
type config struct {
	schemas []*schemaBinding // in matching order
	levels  []*levelBinding  // by name
}

type schemaBinding struct {
	fs    *FlowSchema
	level *levelBinding
	// uid is the X-Kubernetes-PF-FlowSchema-UID header value.
	uid    []string
	series *series
	hashes *flowHashes
}

type levelBinding struct {
	*level
	pl     *PriorityLevelConfiguration
	exempt bool
	queues int
	uid    []string
}

// level is one priority level's lasting state, kept across
// configurations while its name is configured (or while it drains).
type level struct {
	name string
	qs   *fairqueue.QueueSet
	// pending counts requests between classification and StartRequest, so
	// that an undesired level is not dropped under them.
	pending   atomic.Int32
	quiescing atomic.Bool
	maxSeats  atomic.Int64
	metrics   *levelSeries

	// guarded by Controller.mu
	pl                                     *PriorityLevelConfiguration
	nominalCL, minCL, maxCL, currentCL     int
	nominalShares                          int32
	lendablePercent, borrowingLimitPercent *int32
	stats                                  seatDemandStats
}

type seatDemandStats struct {
	avg, stdDev   float64
	highWatermark int
	smoothed      float64
}

func (s *seatDemandStats) update(d fairqueue.DemandStats) {
	s.highWatermark = int(math.Round(d.Max))
	if d.Duration <= 0 {
		return
	}
	dev := d.Deviation
	if math.IsNaN(dev) {
		dev = 0
	}
	s.avg, s.stdDev = d.Average, dev
	envelope := d.Average + dev
	s.smoothed = math.Max(envelope, seatDemandSmoothingCoefficient*s.smoothed+(1-seatDemandSmoothingCoefficient)*envelope)
}

// New returns flow control for a server with the mandatory configuration
// in force; Start follows the stored configuration from then on.
func New(opts Options, deps Deps) *Controller {
	if opts.MaxRequestsInFlight <= 0 {
		opts.MaxRequestsInFlight = 400
	}
	if opts.MaxMutatingRequestsInFlight <= 0 {
		opts.MaxMutatingRequestsInFlight = 200
	}
	if opts.RequestWaitLimit <= 0 {
		opts.RequestWaitLimit = 15 * time.Second
	}
	if opts.RequestWaitLimit > time.Minute {
		opts.RequestWaitLimit = time.Minute
	}
	if opts.Context == nil {
		opts.Context = context.Background()
	}
	if deps.PriorityLevelPrefix == "" {
		deps.PriorityLevelPrefix = "/" + Group + "/prioritylevelconfigurations/"
	}
	if deps.FlowSchemaPrefix == "" {
		deps.FlowSchemaPrefix = "/" + Group + "/flowschemas/"
	}
	clock := opts.Clock
	if clock == nil {
		clock = fairqueue.RealClock{}
	}
	c := &Controller{
		opts: opts, deps: deps, clock: clock,
		serverCL: opts.MaxRequestsInFlight + opts.MaxMutatingRequestsInFlight,
		metrics:  newMetrics(),
		levels:   map[string]*level{},
		kick:     make(chan struct{}, 1),
	}
	c.dropped.now = clock.Now
	c.watches.init()
	c.mu.Lock()
	c.digestLocked(nil, nil)
	c.mu.Unlock()
	return c
}

// ServerConcurrencyLimit is the total of seats the Limited levels share.
func (c *Controller) ServerConcurrencyLimit() int { return c.serverCL }

// Start reads the stored configuration, creates or repairs the bootstrap
// objects (through Deps.Client) and starts following the configuration;
// it returns once the configuration read is in force. It may be called
// once.
func (c *Controller) Start() error {
	if !c.started.CompareAndSwap(false, true) {
		return errors.New("flowcontrol: Start called twice")
	}
	ctx := c.opts.Context
	rev, err := c.sync(ctx)
	if err != nil {
		return err
	}
	go c.run(ctx, rev)
	return nil
}

// sync reads both kinds, digests them, writes the schemas' status and the
// bootstrap objects, and repeats while it wrote something (at most a few
// times), so that the server starts on its own configuration. It returns
// the revision read last.
func (c *Controller) sync(ctx context.Context) (int64, error) {
	var rev int64
	for range 3 {
		pls, fss, r, err := c.list(ctx)
		if err != nil {
			return 0, err
		}
		rev = r
		wrote := c.apply(ctx, pls, fss)
		if !wrote {
			break
		}
	}
	return rev, nil
}

// apply digests a listed configuration and makes the writes it calls for;
// it reports whether it wrote anything.
func (c *Controller) apply(ctx context.Context, pls []*PriorityLevelConfiguration, fss []*FlowSchema) bool {
	c.mu.Lock()
	updates := c.digestLocked(pls, fss)
	c.mu.Unlock()
	if c.deps.Client == nil {
		return false
	}
	wrote := c.writeStatuses(ctx, updates)
	if c.ensure(ctx, pls, fss) {
		wrote = true
	}
	return wrote
}

func (c *Controller) list(ctx context.Context) ([]*PriorityLevelConfiguration, []*FlowSchema, int64, error) {
	plRes, err := c.deps.Store.List(ctx, c.deps.PriorityLevelPrefix, store.ListOptions{})
	if err != nil {
		return nil, nil, 0, err
	}
	fsRes, err := c.deps.Store.List(ctx, c.deps.FlowSchemaPrefix, store.ListOptions{})
	if err != nil {
		return nil, nil, 0, err
	}
	var pls []*PriorityLevelConfiguration
	for _, o := range plRes.Items {
		if pl, err := DecodePriorityLevel(o.Data()); err == nil && pl.Name != "" {
			pls = append(pls, pl)
		}
	}
	var fss []*FlowSchema
	for _, o := range fsRes.Items {
		if fs, err := DecodeFlowSchema(o.Data()); err == nil && fs.Name != "" {
			fss = append(fss, fs)
		}
	}
	return pls, fss, max(plRes.Revision, fsRes.Revision), nil
}

// run follows the configuration from revision rev until the context ends:
// a watch per kind signals changes, after which everything is read again
// and digested; every borrowingAdjustmentPeriod the levels' limits are
// adjusted to their demand.
func (c *Controller) run(ctx context.Context, rev int64) {
	for _, prefix := range []string{c.deps.PriorityLevelPrefix, c.deps.FlowSchemaPrefix} {
		go c.watch(ctx, prefix, rev)
	}
	tick := time.NewTicker(borrowingAdjustmentPeriod)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.kick:
			if _, err := c.sync(ctx); err != nil && ctx.Err() == nil {
				// Retry shortly: the store may be unavailable for a while.
				time.AfterFunc(time.Second, c.requestSync)
			}
		case <-tick.C:
			c.mu.Lock()
			c.updateBorrowingLocked()
			c.mu.Unlock()
		}
	}
}

// requestSync asks the run loop to read the configuration again.
func (c *Controller) requestSync() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

func (c *Controller) watch(ctx context.Context, prefix string, rev int64) {
	for ctx.Err() == nil {
		w, err := c.deps.Store.Watch(ctx, prefix, store.WatchOptions{Revision: rev})
		if err != nil {
			// Too old (or a transient failure): read everything again
			// and watch from now.
			rev = c.deps.Store.Revision()
			c.requestSync()
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
			continue
		}
		for {
			events, err := w.Next(ctx)
			if len(events) > 0 {
				rev = events[len(events)-1].Revision
				c.requestSync()
			}
			if err != nil {
				w.Stop()
				if ctx.Err() == nil {
					rev = c.deps.Store.Revision()
					c.requestSync()
				}
				break
			}
		}
	}
}

// digestLocked turns the listed objects into the configuration requests
// see, as kube's configuration controller does: broken levels are ignored,
// schemas pointing to a missing level are ignored (and their status says
// so), levels no longer configured drain before they go, the mandatory
// objects are imagined while they are missing, and the server's seats are
// shared out again. It returns the status writes to make.
func (c *Controller) digestLocked(pls []*PriorityLevelConfiguration, fss []*FlowSchema) []statusUpdate {
	newLevels := map[string]*level{}
	var shareSum float64
	sort.Slice(pls, func(i, j int) bool { return pls[i].Name < pls[j].Name })
	for _, pl := range pls {
		if err := checkLevel(pl); err != nil {
			continue
		}
		lvl, err := c.levelFor(pl)
		if err != nil {
			continue
		}
		newLevels[pl.Name] = lvl
		shareSum += float64(shares(pl))
	}

	var updates []statusUpdate
	var schemas []*FlowSchema
	var haveExempt, haveCatchAll bool
	for _, fs := range fss {
		_, found := newLevels[fs.Spec.PriorityLevelConfiguration.Name]
		if u, ok := c.danglingUpdate(fs, !found); ok {
			updates = append(updates, u)
		}
		if !found {
			continue
		}
		schemas = append(schemas, fs)
		haveExempt = haveExempt || fs.Name == FlowSchemaNameExempt
		haveCatchAll = haveCatchAll || fs.Name == FlowSchemaNameCatchAll
	}
	sort.SliceStable(schemas, func(i, j int) bool {
		a, b := schemas[i].Spec.MatchingPrecedence, schemas[j].Spec.MatchingPrecedence
		if a != b {
			return a < b
		}
		return schemas[i].Name < schemas[j].Name
	})
	if !haveExempt {
		schemas = append([]*FlowSchema{schemaExempt}, schemas...)
	}
	if !haveCatchAll {
		schemas = append(schemas, schemaCatchAll)
	}

	// Levels no longer configured: the mandatory ones stay as they were,
	// the others drain (their requests still get seats) and go once idle.
	for name, lvl := range c.levels {
		if newLevels[name] != nil {
			continue
		}
		mandatory := name == PriorityLevelConfigurationNameExempt || name == PriorityLevelConfigurationNameCatchAll
		if !mandatory {
			if lvl.pending.Load() == 0 && lvl.qs.IsIdle() {
				continue
			}
			lvl.quiescing.Store(true)
		}
		newLevels[name] = lvl
		shareSum += float64(shares(lvl.pl))
	}
	for _, proto := range mandatoryLevels {
		if newLevels[proto.Name] == nil {
			lvl, err := c.levelFor(proto)
			if err != nil {
				panic(err) // the mandatory levels are valid
			}
			newLevels[proto.Name] = lvl
			shareSum += float64(shares(proto))
		}
	}
	c.levels = newLevels
	c.setLimitsLocked(shareSum)
	c.updateBorrowingLocked()
	c.publishLocked(schemas)
	return updates
}

// checkLevel refuses a level whose union fields disagree with its type,
// which validation allows through for the exempt level's spec.exempt.
func checkLevel(pl *PriorityLevelConfiguration) error {
	s := &pl.Spec
	switch {
	case (s.Type == PriorityLevelEnablementLimited) != (s.Limited != nil):
		return errors.New("broken union structure at the top, for Limited")
	case (s.Type == PriorityLevelEnablementExempt) != (s.Exempt != nil):
		return errors.New("broken union structure at the top, for Exempt")
	case (s.Type == PriorityLevelEnablementExempt) != (pl.Name == PriorityLevelConfigurationNameExempt):
		return errors.New("non-alignment between name and type")
	case s.Limited != nil && (s.Limited.LimitResponse.Type == LimitResponseTypeReject) != (s.Limited.LimitResponse.Queuing == nil):
		return errors.New("broken union structure for limit response")
	}
	return nil
}

func queueConfig(pl *PriorityLevelConfiguration) fairqueue.Config {
	cfg := fairqueue.Config{Name: pl.Name}
	switch {
	case pl.Spec.Limited == nil:
		cfg.Queues = -1
	case pl.Spec.Limited.LimitResponse.Queuing != nil:
		q := pl.Spec.Limited.LimitResponse.Queuing
		cfg.Queues, cfg.HandSize, cfg.QueueLengthLimit = int(q.Queues), int(q.HandSize), int(q.QueueLengthLimit)
	}
	return cfg
}

// levelFor returns the level named by pl, configured by it: the existing
// one (its queues and requests kept) or a new one.
func (c *Controller) levelFor(pl *PriorityLevelConfiguration) (*level, error) {
	qcfg := queueConfig(pl)
	lvl := c.levels[pl.Name]
	if lvl == nil {
		lvl = &level{name: pl.Name, metrics: c.metrics.level(pl.Name)}
		qs, err := fairqueue.New(qcfg, c.clock, c.metrics)
		if err != nil {
			return nil, err
		}
		lvl.qs = qs
		lvl.currentCL = -1 // set from the nominal limit below
	} else if err := lvl.qs.SetConfig(qcfg); err != nil {
		return nil, err
	}
	lvl.pl = pl
	lvl.quiescing.Store(false)
	return lvl, nil
}

// shares is a level's nominalConcurrencyShares (the exempt level's
// defaults to 0).
func shares(pl *PriorityLevelConfiguration) int32 {
	if l := pl.Spec.Limited; l != nil {
		return l.NominalConcurrencyShares
	}
	if e := pl.Spec.Exempt; e != nil && e.NominalConcurrencyShares != nil {
		return *e.NominalConcurrencyShares
	}
	return 0
}

// setLimitsLocked computes each level's nominal limit and the bounds of
// its current one, exactly by the seed's formulas:
//
//	NominalCL(i)   = ceil(ServerCL * NCS(i) / sum_ncs)
//	LendableCL(i)  = round(NominalCL(i) * lendablePercent(i) / 100)
//	BorrowingCL(i) = round(NominalCL(i) * borrowingLimitPercent(i) / 100), ServerCL when unset
//
// A level's current limit stays within [NominalCL-LendableCL,
// NominalCL+BorrowingCL]; a new level starts at NominalCL-LendableCL/2.
func (c *Controller) setLimitsLocked(shareSum float64) {
	c.nominalCLSum = 0
	for _, lvl := range c.levels {
		pl := lvl.pl
		ncs := shares(pl)
		var lendable, borrowing *int32
		if l := pl.Spec.Limited; l != nil {
			lendable, borrowing = l.LendablePercent, l.BorrowingLimitPercent
		} else if e := pl.Spec.Exempt; e != nil {
			lendable = e.LendablePercent
		}
		nominal := 0
		if shareSum > 0 {
			nominal = int(math.Ceil(float64(c.serverCL) * float64(ncs) / shareSum))
		}
		lendableCL, borrowingCL := 0, c.serverCL
		if lendable != nil {
			lendableCL = int(math.Round(float64(nominal) * float64(*lendable) / 100))
		}
		if borrowing != nil {
			borrowingCL = int(math.Round(float64(nominal) * float64(*borrowing) / 100))
		}
		lvl.nominalShares, lvl.lendablePercent, lvl.borrowingLimitPercent = ncs, lendable, borrowing
		lvl.nominalCL, lvl.minCL, lvl.maxCL = nominal, nominal-lendableCL, nominal+borrowingCL
		c.nominalCLSum += nominal
		maxSeats := int64(0)
		if l := pl.Spec.Limited; l != nil && l.LimitResponse.Queuing != nil && l.LimitResponse.Queuing.HandSize > 0 {
			hs := int(l.LimitResponse.Queuing.HandSize)
			maxSeats = int64(math.Max(1, math.Min(math.Ceil(float64(nominal)*maxSeatsFraction), float64(nominal/hs))))
		}
		lvl.maxSeats.Store(maxSeats)
		if lvl.currentCL < 0 {
			lvl.currentCL = nominal - lendableCL/2
			lvl.stats = seatDemandStats{}
		}
		lvl.metrics.setLimits(nominal, lvl.minCL, lvl.maxCL)
	}
}

// updateBorrowingLocked divides the server's seats among the levels for
// the next period by their recent demand, as kube does every ten seconds:
// each level gets at least min(NominalCL, its demand's high watermark) but
// never below NominalCL-LendableCL, then what remains is shared in
// proportion to smoothed demand up to NominalCL+BorrowingCL.
func (c *Controller) updateBorrowingLocked() {
	names := make([]string, 0, len(c.levels))
	for name := range c.levels {
		names = append(names, name)
	}
	sort.Strings(names)
	type row struct {
		lvl          *level
		minCurrentCL int
		item         int // index in items, -1 for exempt levels
	}
	rows := make([]row, 0, len(names))
	var items []allocItem
	remaining := c.nominalCLSum
	var minCLSum, minCurrentCLSum int
	for _, name := range names {
		lvl := c.levels[name]
		lvl.stats.update(lvl.qs.ResetDemand())
		r := row{lvl: lvl, item: -1}
		if lvl.pl.Spec.Type == PriorityLevelEnablementExempt {
			r.minCurrentCL = max(lvl.minCL, lvl.stats.highWatermark)
			remaining -= r.minCurrentCL
		} else {
			r.minCurrentCL = max(lvl.minCL, min(lvl.nominalCL, lvl.stats.highWatermark))
			r.item = len(items)
			items = append(items, allocItem{
				lower:  float64(r.minCurrentCL),
				upper:  float64(lvl.maxCL),
				target: math.Max(float64(r.minCurrentCL), lvl.stats.smoothed),
			})
			minCLSum += lvl.minCL
			minCurrentCLSum += r.minCurrentCL
		}
		rows = append(rows, r)
	}
	var allocs []float64
	var shareFrac float64
	c.fairFrac = 0
	switch {
	case remaining <= minCLSum:
	case remaining <= minCurrentCLSum:
		shareFrac = float64(remaining-minCLSum) / float64(minCurrentCLSum-minCLSum)
	default:
		var err error
		allocs, c.fairFrac, err = allocate(c.nominalCLSum, items)
		if err != nil {
			allocs = make([]float64, len(items))
			for _, r := range rows {
				if r.item >= 0 {
					allocs[r.item] = float64(r.lvl.currentCL)
				}
			}
		}
	}
	for _, r := range rows {
		lvl := r.lvl
		var cl int
		switch {
		case r.item < 0:
			cl = r.minCurrentCL
		case remaining <= minCLSum:
			cl = lvl.minCL
		case remaining <= minCurrentCLSum:
			cl = lvl.minCL + int(math.Round(float64(r.minCurrentCL-lvl.minCL)*shareFrac))
		default:
			cl = int(math.Round(allocs[r.item]))
		}
		lvl.currentCL = cl
		lvl.qs.SetLimit(cl)
		target := float64(r.minCurrentCL)
		if r.item >= 0 {
			target = items[r.item].target
		}
		lvl.metrics.setDemand(lvl.stats, target, cl)
	}
	c.metrics.setFairFrac(c.fairFrac)
}

// publishLocked swaps in the configuration requests are classified by.
func (c *Controller) publishLocked(schemas []*FlowSchema) {
	cfg := &config{}
	byName := map[string]*levelBinding{}
	names := make([]string, 0, len(c.levels))
	for name := range c.levels {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		lvl := c.levels[name]
		b := &levelBinding{level: lvl, pl: lvl.pl, exempt: lvl.pl.Spec.Type == PriorityLevelEnablementExempt,
			queues: queueConfig(lvl.pl).Queues, uid: []string{lvl.pl.UID}}
		byName[name] = b
		cfg.levels = append(cfg.levels, b)
	}
	for _, fs := range schemas {
		lb := byName[fs.Spec.PriorityLevelConfiguration.Name]
		if lb == nil {
			continue // a mandatory schema whose level is being replaced: cannot happen
		}
		cfg.schemas = append(cfg.schemas, &schemaBinding{fs: fs, level: lb, uid: []string{fs.UID},
			series: c.metrics.series(lb.name, fs.Name), hashes: &flowHashes{}})
	}
	c.cfg.Store(cfg)
}

// classify finds the first schema matching d (the catch-all one when none
// does, which only a broken configuration allows).
func (cfg *config) classify(d *digest) *schemaBinding {
	var catchAll *schemaBinding
	for _, s := range cfg.schemas {
		if s.fs.matches(d) {
			return s
		}
		if s.fs.Name == FlowSchemaNameCatchAll {
			catchAll = s
		}
	}
	return catchAll
}

// statusUpdate is a Dangling condition to write to a schema's status.
type statusUpdate struct {
	name      string
	condition Condition
}

// danglingUpdate returns the Dangling condition a schema's status must
// get, when it does not have it already.
func (c *Controller) danglingUpdate(fs *FlowSchema, dangling bool) (statusUpdate, bool) {
	level := fs.Spec.PriorityLevelConfiguration.Name
	want := Condition{Type: FlowSchemaConditionDangling, Status: "False", Reason: "Found",
		Message: fmt.Sprintf("This FlowSchema references the PriorityLevelConfiguration object named %q and it exists", level)}
	if dangling {
		want.Status, want.Reason = "True", "NotFound"
		want.Message = fmt.Sprintf("This FlowSchema references the PriorityLevelConfiguration object named %q but there is no such object", level)
	}
	for _, cond := range fs.Status.Conditions {
		if cond.Type == FlowSchemaConditionDangling {
			if cond.Status == want.Status && cond.Reason == want.Reason && cond.Message == want.Message {
				return statusUpdate{}, false
			}
			break
		}
	}
	if fs.UID == "" { // a mandatory schema imagined, not stored
		return statusUpdate{}, false
	}
	want.LastTransitionTime = meta.FormatTime(c.clock.Now())
	return statusUpdate{name: fs.Name, condition: want}, true
}

// writeStatuses applies the schemas' new conditions, as kube's
// configuration consumer does (server-side apply of the status, forced),
// writing no schema more than six times a minute.
func (c *Controller) writeStatuses(ctx context.Context, updates []statusUpdate) bool {
	now := c.clock.Now()
	var written []string
	delayed := false
	for _, u := range updates {
		if c.tooManyStatusWrites(u.name, now) {
			delayed = true
			continue
		}
		written = append(written, u.name)
		patch := meta.Object{"apiVersion": Group + "/v1", "kind": "FlowSchema",
			"metadata": map[string]any{"name": u.name},
			"status": map[string]any{"conditions": []any{map[string]any{
				"type": u.condition.Type, "status": u.condition.Status, "lastTransitionTime": u.condition.LastTransitionTime,
				"reason": u.condition.Reason, "message": u.condition.Message,
			}}}}
		_ = c.deps.Client.ApplyStatus(ctx, "flowschemas", u.name, patch, ConfigConsumerFieldManager)
	}
	c.mu.Lock()
	c.recentStatusWrites = append([]statusWrite{{at: now, names: written}}, c.recentStatusWrites...)
	c.mu.Unlock()
	if delayed {
		time.AfterFunc(30*time.Second, c.requestSync)
	}
	return len(written) > 0
}

func (c *Controller) tooManyStatusWrites(name string, now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for i, w := range c.recentStatusWrites {
		if now.Sub(w.at) > time.Minute {
			c.recentStatusWrites = c.recentStatusWrites[:i]
			break
		}
		if slices.Contains(w.names, name) {
			if n++; n > 5 {
				return true
			}
		}
	}
	return false
}

// maybeReap asks for a new digest when an undesired level has drained.
func (c *Controller) maybeReap(lvl *level) {
	if lvl.quiescing.Load() && lvl.pending.Load() == 0 && lvl.qs.IsIdle() {
		c.requestSync()
	}
}

// levelNames is for tests and errors.
func (cfg *config) levelNames() string {
	var names []string
	for _, l := range cfg.levels {
		names = append(names, l.name)
	}
	return strings.Join(names, ",")
}
