// Package selectors parses and matches Kubernetes label selectors
// (?labelSelector=) and field selectors (?fieldSelector=).
//
// Both follow kube-apiserver v1.33 (k8s.io/apimachinery v0.33 pkg/labels and
// pkg/fields) in grammar, validation, matching and error wording: the API
// server puts a parse error's text in the message of its 400 Bad Request, and
// clients and people compare it with what a real cluster says. The code is
// our own; nothing here imports k8s.io.
//
// # Parse once, match many times
//
// [ParseLabelSelector] and [ParseFieldSelector] return immutable values
// ([LabelSelector], [FieldSelector]) whose requirements are sorted, so String
// is canonical (a usable cache key) and parsing it gives back an equal
// selector. The zero value of each selects everything. Values can be copied
// and shared by any number of goroutines without locking. Matches does not
// allocate: it walks the requirements and looks keys up in a map or in a
// one-method view ([Labels], [Fields]) over labels and fields the caller
// already has. Errors are plain Go errors; nothing panics, whatever the
// input.
//
// Costs: parsing is linear in the input plus a sort of the requirements;
// Matches is O(requirements × values per requirement) lookups, with no
// allocation; RequiresExactMatch is O(requirements).
//
// # Label selector grammar
//
//	<selector>    ::= "" | <requirement> | <requirement> "," <selector>
//	<requirement> ::= KEY                                  exists
//	                | "!" KEY                              does not exist
//	                | KEY ( "=" | "==" ) VALUE             equals
//	                | KEY "!=" VALUE                       not equals
//	                | KEY "in" "(" <values> ")"            one of
//	                | KEY "notin" "(" <values> ")"         none of
//	                | KEY ">" INTEGER | KEY "<" INTEGER    compares integers
//	<values>      ::= VALUE | VALUE "," <values>
//	KEY           ::= [ PREFIX "/" ] NAME
//	PREFIX        ::= a lowercase DNS-1123 subdomain, at most 253 characters
//	NAME          ::= at most 63 characters of [A-Za-z0-9_.-], starting and
//	                  ending with [A-Za-z0-9]
//	VALUE         ::= "" | NAME
//	INTEGER       ::= a VALUE that is a base-10 int64
//
// Blanks (space, tab, CR, LF) may surround any token. A token ends at a blank
// or at one of = ! ( ) , > <, so "in" and "notin" must be set off by blanks
// ("a in (b)", not "ain(b)"). A missing VALUE is the empty value: "a=" and
// "a in ()" and "a in (,x)" all accept "". "in" and "notin" are keywords only
// where an operator is expected, so "in in (in)" is valid. Kubernetes' lexer
// quirks are kept: a NUL byte where a token would start ends the input.
// Version-specific behaviour follows v1.33: "a in (,,)" is an error there.
//
// # Label semantics
//
//   - "key" matches when the key is set (to any value, "" included);
//     "!key" when it is not.
//   - "key=v", "key==v" and "key in (v1,v2)" need the key set to one of the
//     values. An absent key does not match.
//   - "key!=v" and "key notin (v1,v2)" match when the key is absent, or set
//     to none of the values. Use "key,key!=v" to also require the key.
//   - "key>N" and "key<N" need the key set to a base-10 int64 (as
//     strconv.ParseInt reads it) strictly greater or smaller than N; an
//     absent key or a value that is not an integer does not match.
//   - A selector is the AND of its requirements; the empty selector matches
//     everything. There is no OR.
//
// # Field selector grammar
//
//	<selector> ::= <term> | <term> "," <selector>
//	<term>     ::= "" | FIELD <op> VALUE
//	<op>       ::= "=" | "==" | "!="
//	FIELD      ::= any text before the first operator, kept as is
//	VALUE      ::= text where "\", "," and "=" are written "\\", "\," and "\="
//
// Nothing is trimmed: "status.phase = Running" has the field "status.phase "
// and the value " Running". Terms are split at commas that no backslash
// escapes; empty terms, and a term whose field and value are both empty
// ("="), are skipped. Any escape other than the three, a trailing lone
// backslash, or an unescaped "=" in a value is an error. Which fields exist
// is not the parser's business: the API server checks them per resource with
// [FieldSelector.Validate] and answers "field label not supported: <field>".
//
// # Field semantics
//
// "f=v" (or "f==v") matches when the object's field f equals v; "f!=v" when
// it does not. A field the object does not have counts as the empty string,
// as in Kubernetes: "spec.nodeName=" selects objects without spec.nodeName,
// and "spec.nodeName!=n1" selects them too.
//
// # Example
//
//	sel, err := selectors.ParseLabelSelector("tier in (web, api), !canary, env!=prod")
//	// err == nil
//	// sel.String() == "!canary,env!=prod,tier in (api,web)"  (sorted by key)
//	sel.Matches(map[string]string{"tier": "web"})                // true: env is absent
//	sel.Matches(map[string]string{"tier": "web", "env": "prod"}) // false
//	sel.Matches(map[string]string{"tier": "db"})                 // false
//	sel.RequiresExactMatch("tier")                               // "", false: two values
//
//	_, err = selectors.ParseLabelSelector("tier in (")
//	// err: unable to parse requirement: found '', expected: ',', ')' or identifier
//
//	fs, _ := selectors.ParseFieldSelector(`metadata.name=a\,b,status.phase!=Failed`)
//	fs.RequiresExactMatch("metadata.name")                       // "a,b", true
//	fs.Matches(selectors.FieldSet{"metadata.name": "a,b"})       // true: no status.phase is ""
//	fs.Validate(func(f string) bool { return f == "metadata.name" })
//	// error: field label not supported: status.phase
package selectors
