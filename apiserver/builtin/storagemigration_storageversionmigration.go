package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// storageVersionMigrationResource is storagemigration.k8s.io/v1
// storageversionmigrations (GA and served by default in 1.37). Nothing
// migrates: kapi stores every object at its current version already.
func storageVersionMigrationResource() apiserver.Resource {
	return apiserver.Resource{Group: "storagemigration.k8s.io", Version: "v1", Kind: "StorageVersionMigration",
		Plural: "storageversionmigrations", StatusSubresource: true, WithoutGeneration: true,
		PrinterColumns: storageVersionMigrationColumns}
}

// storageVersionMigrationColumns are kube's: the resource and the state,
// without an Age column.
var storageVersionMigrationColumns = []apiserver.PrinterColumn{
	column("Resource", "string", "GroupResource to migrate", 0, func(o meta.Object, now time.Time) any {
		r, g := str(o, "spec", "resource", "resource"), str(o, "spec", "resource", "group")
		if g == "" {
			return r
		}
		return r + "." + g
	}),
	column("Status", "string", "Status of the migration", 0, func(o meta.Object, now time.Time) any {
		conds, _ := field(o, "status", "conditions").([]any)
		state := "Unknown"
		for _, c := range conds {
			cm, _ := c.(map[string]any)
			if cm["status"] != "True" {
				continue
			}
			switch t, _ := cm["type"].(string); t {
			case "Running", "Failed", "Succeeded":
				state = t
			}
		}
		return state
	}),
}
