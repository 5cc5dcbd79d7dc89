package fieldmanager

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/kapi-dev/kapi/meta"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
)

// conflictStatus turns SMD's conflicts into the 409 kube-apiserver sends
// (apimachinery's internal/conflict.go NewConflictError): reason Conflict,
// one FieldManagerConflict cause per field and the message
// "Apply failed with N conflict(s): ...". kube lists the causes in map
// order; they are sorted here (by manager identity, then path) so that
// equal requests get equal answers.
func conflictStatus(conflicts merge.Conflicts) *meta.Status {
	conflicts = slices.Clone(conflicts)
	slices.SortStableFunc(conflicts, func(a, b merge.Conflict) int {
		if c := strings.Compare(a.Manager, b.Manager); c != 0 {
			return c
		}
		return a.Path.Compare(b.Path)
	})
	causes := make([]meta.StatusCause, len(conflicts))
	for i, c := range conflicts {
		causes[i] = meta.StatusCause{
			Type:    meta.CauseFieldManagerConflict,
			Message: "conflict with " + printManager(c.Manager),
			Field:   c.Path.String(),
		}
	}
	return &meta.Status{
		Kind: "Status", APIVersion: "v1", Status: "Failure",
		Code: http.StatusConflict, Reason: meta.ReasonConflict,
		Message: conflictMessage(conflicts),
		Details: &meta.StatusDetails{Causes: causes},
	}
}

func conflictMessage(conflicts merge.Conflicts) string {
	if len(conflicts) == 1 {
		return fmt.Sprintf("Apply failed with 1 conflict: conflict with %v: %v", printManager(conflicts[0].Manager), conflicts[0].Path)
	}
	byManager := map[string][]string{}
	for _, c := range conflicts {
		byManager[c.Manager] = append(byManager[c.Manager], c.Path.String())
	}
	var lines []string
	for _, m := range slices.Sorted(maps.Keys(byManager)) {
		lines = append(lines, fmt.Sprintf("conflicts with %v:", printManager(m)))
		for _, p := range byManager[m] {
			lines = append(lines, "- "+p)
		}
	}
	return fmt.Sprintf("Apply failed with %d conflicts: %s", len(conflicts), strings.Join(lines, "\n"))
}

// printManager names a manager in a conflict: `"name"`, then
// ` with subresource "status"` and, for an Update, ` using apps/v1`.
func printManager(key string) string {
	id, ok := parseIdentity(key)
	if !ok {
		return fmt.Sprintf("%q", key)
	}
	s := fmt.Sprintf("%q", id.Manager)
	if id.Subresource != "" {
		s += fmt.Sprintf(" with subresource %q", id.Subresource)
	}
	if id.Operation == OperationUpdate {
		s += " using " + id.APIVersion
	}
	return s
}
