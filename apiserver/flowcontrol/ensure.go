package flowcontrol

import (
	"context"
	"reflect"
	"strconv"

	"github.com/kapi-dev/kapi/meta"
)

// ensure keeps the bootstrap objects in place as kube's configuration
// producer does: a missing bootstrap object is created (suggested ones
// too); a mandatory object whose spec differs gets the fixed spec back; a
// suggested one gets the current bootstrap spec while its
// apf.kubernetes.io/autoupdate-spec annotation is "true" (absent counts as
// true on an object never changed, at generation 1); the annotation is set
// to what was decided; and objects that are annotated "true" but are no
// longer part of the bootstrap configuration are deleted. It reports
// whether it wrote anything. Conflicts and concurrent creations are left
// to the next round, triggered by the write that caused them.
func (c *Controller) ensure(ctx context.Context, pls []*PriorityLevelConfiguration, fss []*FlowSchema) bool {
	curPL := map[string]*PriorityLevelConfiguration{}
	for _, pl := range pls {
		curPL[pl.Name] = pl
	}
	curFS := map[string]*FlowSchema{}
	for _, fs := range fss {
		curFS[fs.Name] = fs
	}
	wrote := false
	plOne := func(boot *PriorityLevelConfiguration, mandatory bool) {
		cur := curPL[boot.Name]
		var raw meta.Object
		if cur != nil {
			raw = cur.raw
		}
		if c.ensureOne(ctx, "prioritylevelconfigurations", "PriorityLevelConfiguration", boot, raw, mandatory,
			func() bool { return levelSpecEqualish(boot, cur) }) {
			wrote = true
		}
	}
	fsOne := func(boot *FlowSchema, mandatory bool) {
		cur := curFS[boot.Name]
		var raw meta.Object
		if cur != nil {
			raw = cur.raw
		}
		if c.ensureOne(ctx, "flowschemas", "FlowSchema", boot, raw, mandatory,
			func() bool { return reflect.DeepEqual(normalizeFSSpec(boot.Spec), normalizeFSSpec(cur.Spec)) }) {
			wrote = true
		}
	}
	for _, pl := range suggestedLevels {
		plOne(pl, false)
	}
	for _, fs := range suggestedSchemas {
		fsOne(fs, false)
	}
	for _, pl := range mandatoryLevels {
		plOne(pl, true)
	}
	for _, fs := range mandatorySchemas {
		fsOne(fs, true)
	}
	bootPL := map[string]bool{}
	for _, pl := range append(append([]*PriorityLevelConfiguration{}, mandatoryLevels...), suggestedLevels...) {
		bootPL[pl.Name] = true
	}
	bootFS := map[string]bool{}
	for _, fs := range append(append([]*FlowSchema{}, mandatorySchemas...), suggestedSchemas...) {
		bootFS[fs.Name] = true
	}
	for _, fs := range fss {
		if !bootFS[fs.Name] && annotatedAutoUpdate(fs.Annotations) {
			_ = c.deps.Client.Delete(ctx, "flowschemas", fs.Name)
			wrote = true
		}
	}
	for _, pl := range pls {
		if !bootPL[pl.Name] && annotatedAutoUpdate(pl.Annotations) {
			_ = c.deps.Client.Delete(ctx, "prioritylevelconfigurations", pl.Name)
			wrote = true
		}
	}
	return wrote
}

// annotatedAutoUpdate reports whether an object says the server keeps it.
func annotatedAutoUpdate(ann map[string]string) bool {
	v, ok := ann[AutoUpdateAnnotationKey]
	if !ok {
		return false
	}
	b, err := strconv.ParseBool(v)
	return err == nil && b
}

// ensureOne creates or revises one bootstrap object; boot is the typed
// bootstrap object, cur the stored one (nil when missing).
func (c *Controller) ensureOne(ctx context.Context, resource, kind string, boot any, cur meta.Object, mandatory bool, specEqual func() bool) bool {
	bootObj := toObject(kind, boot)
	if cur == nil {
		return c.deps.Client.Create(ctx, resource, bootObj, ConfigProducerFieldManager) == nil
	}
	autoUpdate := mandatory
	if !autoUpdate {
		if v, err := strconv.ParseBool(cur.Annotations()[AutoUpdateAnnotationKey]); err == nil {
			autoUpdate = v
		} else {
			// No usable annotation: keep an object nobody has changed.
			autoUpdate = cur.Generation() == 1
		}
	}
	updateAnnotation := true
	if v, err := strconv.ParseBool(cur.Annotations()[AutoUpdateAnnotationKey]); err == nil && v == autoUpdate {
		updateAnnotation = false
	}
	specChanged := autoUpdate && !specEqual()
	if !updateAnnotation && !specChanged {
		return false
	}
	revised := cur.DeepCopy()
	if specChanged {
		revised["spec"] = bootObj["spec"]
	}
	if updateAnnotation {
		md := revised.MetadataForWrite()
		ann, _ := meta.AsMap(md["annotations"])
		if ann == nil {
			ann = map[string]any{}
		}
		ann[AutoUpdateAnnotationKey] = strconv.FormatBool(autoUpdate)
		md["annotations"] = ann
	}
	_ = c.deps.Client.Update(ctx, resource, revised, ConfigProducerFieldManager)
	return true
}

// levelSpecEqualish compares a stored level with its bootstrap version,
// the exempt level's spec.exempt being the administrator's.
func levelSpecEqualish(boot, cur *PriorityLevelConfiguration) bool {
	want := boot.Spec
	if boot.Name == PriorityLevelConfigurationNameExempt {
		if cur.Spec.Exempt == nil {
			return false
		}
		want.Exempt = &ExemptPriorityLevelConfiguration{
			NominalConcurrencyShares: cur.Spec.Exempt.NominalConcurrencyShares,
			LendablePercent:          cur.Spec.Exempt.LendablePercent,
		}
	}
	return reflect.DeepEqual(want, cur.Spec)
}
