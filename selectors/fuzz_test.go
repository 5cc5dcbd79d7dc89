package selectors

import (
	"testing"
)

var labelSeeds = []string{
	"", "a", "!a", "a=b", "a==b", "a!=b", "a in (b,c)", "a notin (b,c)", "a in ()", "a in (,b,)", "a in (,,)",
	"a>5", "a<-1", "x in (c,a), !y, z>3, w", "example.com/a=b", "in in (in)", "a=\x00b", "a \x00!!",
	"a/b/c", "/a", "a/", "a>b-", "a in (", "!a=b", "a===", "a<=1", "k8s.io/x-y_z.w=V-1_2.3",
}

// FuzzParseLabelSelector checks that no input makes the parser or a
// selector panic, and that String gives back an equal selector.
func FuzzParseLabelSelector(f *testing.F) {
	for _, s := range labelSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseLabelSelector(s)
		if err != nil {
			if !sel.Empty() || err.Error() == "" {
				t.Fatalf("%q: failed parse must give the zero selector and a message", s)
			}
			return
		}
		str := sel.String()
		again, err := ParseLabelSelector(str)
		if err != nil {
			t.Fatalf("%q: String() %q does not parse: %v", s, str, err)
		}
		if !again.Equal(sel) || again.String() != str {
			t.Fatalf("%q: String() %q parses to %q", s, str, again.String())
		}
		// Labels built from the selector's own values exercise every branch.
		labels := map[string]string{}
		for _, r := range sel.Requirements() {
			if vs := r.Values(); len(vs) > 0 {
				labels[r.Key()] = vs[len(vs)-1]
			}
			if op := r.Operator(); op == Equals || op == DoubleEquals {
				if _, ok := sel.RequiresExactMatch(r.Key()); !ok {
					t.Fatalf("%q: %s is not an exact match", s, r)
				}
			}
		}
		for _, ls := range []map[string]string{nil, labels} {
			if sel.Matches(ls) != sel.MatchesLabels(LabelSet(ls)) {
				t.Fatalf("%q: Matches and MatchesLabels disagree on %v", s, ls)
			}
		}
	})
}

var fieldSeeds = []string{
	"", "=", "a=b", "a==b", "a!=b", "a=", "=b", "a=b,c!=d", `a=\,\=\\`, `a\,b=c`, `a=\x`, `a=\`, "a=b=c", "a",
	"a = b", "a=b\xff\\,", "a!b=c", ",,a=b,,",
}

// FuzzParseFieldSelector checks that no input makes the parser or a
// selector panic, and that String gives back an equal selector.
func FuzzParseFieldSelector(f *testing.F) {
	for _, s := range fieldSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseFieldSelector(s)
		if err != nil {
			if !sel.Empty() || err.Error() == "" {
				t.Fatalf("%q: failed parse must give the zero selector and a message", s)
			}
			return
		}
		str := sel.String()
		again, err := ParseFieldSelector(str)
		if err != nil {
			t.Fatalf("%q: String() %q does not parse: %v", s, str, err)
		}
		if !again.Equal(sel) || again.String() != str {
			t.Fatalf("%q: String() %q parses to %q", s, str, again.String())
		}
		fields := FieldSet{}
		for _, r := range sel.Requirements() {
			if r.Operator != Equals && r.Operator != NotEquals {
				t.Fatalf("%q: unexpected operator %q", s, r.Operator)
			}
			if r.Operator == Equals {
				fields[r.Field] = r.Value
				if _, ok := sel.RequiresExactMatch(r.Field); !ok {
					t.Fatalf("%q: %q=%q is not an exact match", s, r.Field, r.Value)
				}
			}
		}
		sel.Matches(fields)
		sel.Matches(FieldSet(nil))
		_ = sel.Validate(func(string) bool { return false })
		_ = sel.ValidateMetadataOnly()
	})
}
