package selectors

import (
	"errors"
	"slices"
	"strconv"
	"strings"
)

// The label selector lexer and parser. They follow the behaviour of
// k8s.io/apimachinery v0.33 pkg/labels (the version of the reference
// kube-apiserver, v1.33) token for token, including its error messages and
// its corner cases, because clients see both.

type tokenKind uint8

const (
	tokEnd          tokenKind = iota // end of input
	tokIdent                         // a key or a value
	tokIn                            // "in" (an identifier where a value is expected)
	tokNotIn                         // "notin" (likewise)
	tokOpenPar                       // (
	tokClosePar                      // )
	tokComma                         // ,
	tokNot                           // !
	tokEquals                        // =
	tokDoubleEquals                  // ==
	tokNotEquals                     // !=
	tokGreater                       // >
	tokLess                          // <
)

type token struct {
	kind tokenKind
	lit  string
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isSpecial(c byte) bool {
	switch c {
	case '=', '!', '(', ')', ',', '>', '<':
		return true
	}
	return false
}

// symbolToken returns the kind of a symbol token lexLabels cut out.
func symbolToken(s string) tokenKind {
	switch s {
	case "(":
		return tokOpenPar
	case ")":
		return tokClosePar
	case ",":
		return tokComma
	case "!":
		return tokNot
	case "==":
		return tokDoubleEquals
	case "!=":
		return tokNotEquals
	case ">":
		return tokGreater
	case "<":
		return tokLess
	}
	return tokEquals
}

// lexLabels splits s into tokens, ending with one tokEnd. As in Kubernetes,
// a NUL byte where a token would start ends the input, and a NUL byte right
// after an identifier or a symbol is swallowed as a separator.
func lexLabels(s string) []token {
	toks := make([]token, 0, 8)
	i := 0
	for {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i >= len(s) || s[i] == 0 {
			return append(toks, token{kind: tokEnd})
		}
		start := i
		if isSpecial(s[i]) {
			// Longest run of symbols that is still one token: "!=" and
			// "==" but "=" then "=" for "===", "<" then "=" for "<=".
			i++
			if i < len(s) && s[i] == '=' && (s[start] == '!' || s[start] == '=') {
				i++
			}
			toks = append(toks, token{kind: symbolToken(s[start:i]), lit: s[start:i]})
		} else {
			for i < len(s) && s[i] != 0 && !isSpecial(s[i]) && !isSpace(s[i]) {
				i++
			}
			lit := s[start:i]
			kind := tokIdent
			switch lit {
			case "in":
				kind = tokIn
			case "notin":
				kind = tokNotIn
			}
			toks = append(toks, token{kind: kind, lit: lit})
		}
		if i < len(s) && s[i] == 0 {
			i++ // Kubernetes' lexer reads the NUL as "end", then goes on after it.
		}
	}
}

type labelParser struct {
	toks []token
	pos  int
}

// peek returns the current token. Where a value is expected (valueContext),
// the keywords "in" and "notin" are identifiers.
func (p *labelParser) peek(valueContext bool) token {
	t := p.toks[p.pos]
	if valueContext && (t.kind == tokIn || t.kind == tokNotIn) {
		t.kind = tokIdent
	}
	return t
}

func (p *labelParser) next(valueContext bool) token {
	t := p.peek(valueContext)
	if t.kind != tokEnd { // stay on the final tokEnd
		p.pos++
	}
	return t
}

func found(lit, expected string) error {
	return errors.New("found '" + lit + "', expected: " + expected)
}

func (p *labelParser) parse() ([]LabelRequirement, error) {
	var reqs []LabelRequirement
	for {
		t := p.peek(true)
		switch t.kind {
		case tokEnd:
			return reqs, nil
		case tokIdent, tokNot:
		default:
			return nil, found(t.lit, "!, identifier, or 'end of string'")
		}
		r, err := p.parseRequirement()
		if err != nil {
			return nil, errors.New("unable to parse requirement: " + err.Error())
		}
		reqs = append(reqs, r)
		switch t := p.next(true); t.kind {
		case tokEnd:
			return reqs, nil
		case tokComma:
			if t2 := p.peek(true); t2.kind != tokIdent && t2.kind != tokNot {
				return nil, found(t2.lit, "identifier after ','")
			}
		default:
			return nil, found(t.lit, "',' or 'end of string'")
		}
	}
}

func (p *labelParser) parseRequirement() (LabelRequirement, error) {
	var op Operator
	t := p.next(true)
	if t.kind == tokNot {
		op = DoesNotExist
		t = p.next(true)
	}
	if t.kind != tokIdent {
		return LabelRequirement{}, found(t.lit, "identifier")
	}
	key := t.lit
	if errs := labelKeyErrors(key); len(errs) > 0 {
		// Kubernetes validates the key here with a nil field path.
		return LabelRequirement{}, errors.New(invalidValue("<nil>", key, strings.Join(errs, "; ")))
	}
	if op == "" {
		if k := p.peek(true).kind; k == tokEnd || k == tokComma {
			op = Exists
		}
	}
	if op == Exists || op == DoesNotExist {
		// "!key" ends the requirement even if an operator follows: the
		// caller then reports the operator as unexpected, like Kubernetes.
		return LabelRequirement{key: key, op: op}, nil
	}

	switch t := p.next(false); t.kind {
	case tokIn:
		op = In
	case tokNotIn:
		op = NotIn
	case tokEquals:
		op = Equals
	case tokDoubleEquals:
		op = DoubleEquals
	case tokNotEquals:
		op = NotEquals
	case tokGreater:
		op = GreaterThan
	case tokLess:
		op = LessThan
	default:
		return LabelRequirement{}, found(t.lit, "in, notin, =, ==, !=, gt, lt")
	}

	var values []string
	var err error
	if op == In || op == NotIn {
		values, err = p.parseValueSet()
	} else {
		values, err = p.parseExactValue()
	}
	if err != nil {
		return LabelRequirement{}, err
	}
	slices.Sort(values)
	values = slices.Compact(values)
	return newLabelRequirement(key, op, values)
}

// parseValueSet parses "(v1,v2,...)". Empty items are the empty value:
// "()" and "(,)" are {""}, "(a,)" is {"", "a"}. Like Kubernetes v1.33,
// "(,,)" and "(a,,)" are errors.
func (p *labelParser) parseValueSet() ([]string, error) {
	if t := p.next(true); t.kind != tokOpenPar {
		return nil, errors.New("found '" + t.lit + "' expected: '('")
	}
	switch t := p.peek(true); t.kind {
	case tokClosePar:
		p.next(true)
		return []string{""}, nil
	case tokIdent, tokComma:
	default:
		return nil, found(t.lit, "',', ')' or identifier")
	}
	var values []string
	for {
		switch t := p.next(true); t.kind {
		case tokIdent:
			values = append(values, t.lit)
			switch t2 := p.peek(true); t2.kind {
			case tokComma:
				continue
			case tokClosePar:
				p.next(true)
				return values, nil
			default:
				return nil, found(t2.lit, "',' or ')'")
			}
		case tokComma:
			if len(values) == 0 {
				values = append(values, "") // "(,"
			}
			switch p.peek(true).kind {
			case tokClosePar: // ",)"
				p.next(true)
				return append(values, ""), nil
			case tokComma: // ",,"
				p.next(true)
				values = append(values, "")
			}
		default:
			return nil, found(t.lit, "',', or identifier")
		}
	}
}

// parseExactValue parses the value after =, ==, !=, > or <; a missing
// value (end of input or ",") is the empty value.
func (p *labelParser) parseExactValue() ([]string, error) {
	if k := p.peek(true).kind; k == tokEnd || k == tokComma {
		return []string{""}, nil
	}
	t := p.next(true)
	if t.kind != tokIdent {
		return nil, found(t.lit, "identifier")
	}
	return []string{t.lit}, nil
}

// newLabelRequirement validates the values of a requirement as Kubernetes'
// NewRequirement does (the key is already valid), with its field paths and
// its aggregation of several errors into "[e1, e2]".
func newLabelRequirement(key string, op Operator, values []string) (LabelRequirement, error) {
	r := LabelRequirement{key: key, op: op, values: values}
	var errs []string
	if op == GreaterThan || op == LessThan {
		for i, v := range values {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				errs = append(errs, invalidValue("values["+strconv.Itoa(i)+"]", v, "for 'Gt', 'Lt' operators, the value must be an integer"))
				continue
			}
			r.num = n
		}
	}
	for i, v := range values {
		if msgs := labelValueErrors(v); len(msgs) > 0 {
			errs = append(errs, invalidValue("values["+strconv.Itoa(i)+"]["+key+"]", v, strings.Join(msgs, "; ")))
		}
	}
	switch errs = compactUnsorted(errs); len(errs) {
	case 0:
		return r, nil
	case 1:
		return LabelRequirement{}, errors.New(errs[0])
	default:
		return LabelRequirement{}, errors.New("[" + strings.Join(errs, ", ") + "]")
	}
}

// compactUnsorted drops repeated messages, keeping the first of each.
func compactUnsorted(msgs []string) []string {
	out := msgs[:0]
	for _, m := range msgs {
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// ParseLabelSelector parses a label selector in Kubernetes' syntax:
//
//	<selector>    ::= "" | <requirement> | <requirement> "," <selector>
//	<requirement> ::= KEY | "!" KEY
//	                | KEY ( "=" | "==" | "!=" ) VALUE
//	                | KEY ( ">" | "<" ) INTEGER
//	                | KEY ( "in" | "notin" ) "(" <values> ")"
//	<values>      ::= VALUE | VALUE "," <values>
//
// KEY is [DNS-1123 subdomain (at most 253 characters) "/"] NAME, NAME being at
// most 63 characters of [A-Za-z0-9_.-] that start and end with [A-Za-z0-9].
// VALUE is empty or like NAME. INTEGER is a VALUE that strconv.ParseInt reads
// as a base-10 int64. Spaces, tabs, CR and LF may surround every token; "in"
// and "notin" need space before them (else they are part of the key).
//
// The result is sorted by key, so its String is canonical. Errors have the
// wording of kube-apiserver v1.33, which puts them in its 400 responses, for
// example "unable to parse requirement: found ”, expected: ',', ')' or
// identifier" for "a in (". See the package documentation for the matching
// semantics.
func ParseLabelSelector(s string) (LabelSelector, error) {
	p := labelParser{toks: lexLabels(s)}
	reqs, err := p.parse()
	if err != nil {
		return LabelSelector{}, err
	}
	slices.SortFunc(reqs, compareLabelRequirements)
	return LabelSelector{reqs: reqs}, nil
}
