package codec

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds nesting, like encoding/json, so hostile input cannot
// exhaust the stack.
const maxDepth = 10000

// SyntaxError is malformed JSON, worded like encoding/json's errors.
type SyntaxError struct {
	Msg    string
	Offset int
}

func (e *SyntaxError) Error() string { return e.Msg }

// jsonDecoder parses JSON into kapi's object model in one pass: objects
// become map[string]any, integers that fit become int64 (as Kubernetes'
// unstructured objects have them), other numbers float64. It records
// duplicate object keys by path, for field validation.
type jsonDecoder struct {
	data       []byte
	pos        int
	depth      int
	path       []pathElem
	duplicates []Field
	// offsets, when not nil, records where each field path first appears.
	offsets map[string]int
	// mergeDuplicates merges a duplicate key's object value into the
	// first one (TypedDecoder).
	mergeDuplicates bool
}

// Field names a field of a body by its dotted path ("spec.containers[0].name")
// and the byte offset of its key.
type Field struct {
	Path   string
	Offset int
}

// FieldOffsets returns the offset of the first occurrence of every field
// path in a JSON body (nil if it does not parse), so that problems found
// after decoding can be reported in document order.
func FieldOffsets(data []byte) map[string]int {
	d := jsonDecoder{data: data, offsets: map[string]int{}}
	d.skipSpace()
	if _, err := d.value(); err != nil {
		return nil
	}
	return d.offsets
}

// decodeJSON parses data, which must hold exactly one JSON value.
func decodeJSON(data []byte) (any, []Field, error) {
	d := jsonDecoder{data: data}
	return d.decode()
}

func (d *jsonDecoder) decode() (any, []Field, error) {
	d.skipSpace()
	v, err := d.value()
	if err != nil {
		return nil, nil, err
	}
	d.skipSpace()
	if d.pos < len(d.data) {
		return nil, nil, d.errorf("invalid character %s after top-level value", quoteChar(d.data[d.pos]))
	}
	return v, d.duplicates, nil
}

func (d *jsonDecoder) errorf(format string, args ...any) error {
	return &SyntaxError{Msg: fmt.Sprintf(format, args...), Offset: d.pos}
}

func (d *jsonDecoder) eof() error {
	return &SyntaxError{Msg: "unexpected end of JSON input", Offset: d.pos}
}

func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	q := strconv.Quote(string(rune(c)))
	return "'" + q[1:len(q)-1] + "'"
}

func (d *jsonDecoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *jsonDecoder) value() (any, error) {
	if d.pos >= len(d.data) {
		return nil, d.eof()
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object()
	case c == '[':
		return d.array()
	case c == '"':
		return d.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	default:
		return nil, d.errorf("invalid character %s looking for beginning of value", quoteChar(c))
	}
}

func (d *jsonDecoder) literal(word string) error {
	for i := 0; i < len(word); i++ {
		if d.pos >= len(d.data) {
			return d.eof()
		}
		if d.data[d.pos] != word[i] {
			return d.errorf("invalid character %s in literal %s (expecting %s)",
				quoteChar(d.data[d.pos]), word, quoteChar(word[i]))
		}
		d.pos++
	}
	return nil
}

func (d *jsonDecoder) enter() error {
	d.depth++
	if d.depth > maxDepth {
		return d.errorf("exceeded max depth")
	}
	return nil
}

func (d *jsonDecoder) object() (any, error) {
	if err := d.enter(); err != nil {
		return nil, err
	}
	d.pos++ // '{'
	m := map[string]any{}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		d.depth--
		return m, nil
	}
	for {
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.eof()
		}
		if d.data[d.pos] != '"' {
			return nil, d.errorf("invalid character %s looking for beginning of object key string", quoteChar(d.data[d.pos]))
		}
		keyOffset := d.pos
		key, err := d.str()
		if err != nil {
			return nil, err
		}
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.eof()
		}
		if d.data[d.pos] != ':' {
			return nil, d.errorf("invalid character %s after object key", quoteChar(d.data[d.pos]))
		}
		d.pos++
		d.skipSpace()
		d.path = append(d.path, pathElem{key: key})
		if d.offsets != nil {
			if p := joinPath(d.path); !hasKey(d.offsets, p) {
				d.offsets[p] = keyOffset
			}
		}
		first, dup := m[key]
		if dup {
			d.duplicates = append(d.duplicates, Field{Path: joinPath(d.path), Offset: keyOffset})
		}
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		d.path = d.path[:len(d.path)-1]
		if dup && d.mergeDuplicates {
			v = mergeDuplicate(first, v)
		}
		m[key] = v
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.eof()
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			d.depth--
			return m, nil
		default:
			return nil, d.errorf("invalid character %s after object key:value pair", quoteChar(d.data[d.pos]))
		}
	}
}

// pathElem is one step of the decoder's current path: an object key or a
// list index. Paths are only rendered when a problem is found.
type pathElem struct {
	key     string
	index   int
	isIndex bool
}

func hasKey(m map[string]int, k string) bool { _, ok := m[k]; return ok }

// joinPath renders a field path as kube reports fields: keys joined by
// dots, list indices in brackets ("spec.containers[0].name").
func joinPath(path []pathElem) string {
	var b []byte
	for i, p := range path {
		if p.isIndex {
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(p.index), 10)
			b = append(b, ']')
			continue
		}
		if i > 0 {
			b = append(b, '.')
		}
		b = append(b, p.key...)
	}
	return string(b)
}

func (d *jsonDecoder) array() (any, error) {
	if err := d.enter(); err != nil {
		return nil, err
	}
	d.pos++ // '['
	list := []any{}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		d.depth--
		return list, nil
	}
	for {
		d.skipSpace()
		d.path = append(d.path, pathElem{index: len(list), isIndex: true})
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		d.path = d.path[:len(d.path)-1]
		list = append(list, v)
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.eof()
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case ']':
			d.pos++
			d.depth--
			return list, nil
		default:
			return nil, d.errorf("invalid character %s after array element", quoteChar(d.data[d.pos]))
		}
	}
}

func (d *jsonDecoder) number() (any, error) {
	start := d.pos
	isInt := true
	if d.data[d.pos] == '-' {
		d.pos++
	}
	if d.pos >= len(d.data) {
		return nil, d.eof()
	}
	switch c := d.data[d.pos]; {
	case c == '0':
		d.pos++
	case c >= '1' && c <= '9':
		d.digits()
	default:
		return nil, d.errorf("invalid character %s in numeric literal", quoteChar(c))
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		isInt = false
		d.pos++
		if d.pos >= len(d.data) {
			return nil, d.eof()
		}
		if c := d.data[d.pos]; c < '0' || c > '9' {
			return nil, d.errorf("invalid character %s after decimal point in numeric literal", quoteChar(c))
		}
		d.digits()
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		isInt = false
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if d.pos >= len(d.data) {
			return nil, d.eof()
		}
		if c := d.data[d.pos]; c < '0' || c > '9' {
			return nil, d.errorf("invalid character %s in exponent of numeric literal", quoteChar(c))
		}
		d.digits()
	}
	text := string(d.data[start:d.pos])
	if isInt {
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return n, nil
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return nil, &SyntaxError{Msg: fmt.Sprintf("json: cannot unmarshal number %s into Go value of type float64", text), Offset: start}
	}
	return f, nil
}

func (d *jsonDecoder) digits() {
	for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
		d.pos++
	}
}

// str parses a string literal; invalid UTF-8 and lone surrogates become
// U+FFFD as encoding/json does.
func (d *jsonDecoder) str() (string, error) {
	d.pos++ // opening quote
	start := d.pos
	// Fast path: no escapes, ASCII or valid UTF-8.
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c == '"' {
			s := d.data[start:d.pos]
			d.pos++
			if utf8.Valid(s) {
				return string(s), nil
			}
			return string([]rune(string(s))), nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		d.pos++
	}
	buf := append([]byte(nil), d.data[start:d.pos]...)
	for {
		if d.pos >= len(d.data) {
			return "", d.eof()
		}
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			if utf8.Valid(buf) {
				return string(buf), nil
			}
			return string([]rune(string(buf))), nil
		case c < 0x20:
			return "", d.errorf("invalid character %s in string literal", quoteChar(c))
		case c == '\\':
			d.pos++
			if d.pos >= len(d.data) {
				return "", d.eof()
			}
			e := d.data[d.pos]
			d.pos++
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, err := d.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) {
					r2 := utf8.RuneError
					if d.pos+1 < len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
						save := d.pos
						d.pos += 2
						lo, err := d.hex4()
						if err != nil {
							return "", err
						}
						if dec := utf16.DecodeRune(r, lo); dec != utf8.RuneError {
							r2 = dec
						} else {
							d.pos = save
						}
					}
					r = r2
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return "", d.errorf("invalid character %s in string escape code", quoteChar(e))
			}
		default:
			buf = append(buf, c)
			d.pos++
		}
	}
}

func (d *jsonDecoder) hex4() (rune, error) {
	var r rune
	for i := 0; i < 4; i++ {
		if d.pos >= len(d.data) {
			return 0, d.eof()
		}
		c := d.data[d.pos]
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, d.errorf("invalid character %s in \\u hexadecimal character escape", quoteChar(c))
		}
		r = r<<4 | rune(v)
		d.pos++
	}
	return r, nil
}

// mergeDuplicate is the value of a key given twice, first then next, as
// encoding/json leaves a Go field it decodes twice: objects merge, key by
// key by the same rule; anything else is replaced.
func mergeDuplicate(first, next any) any {
	dst, ok := first.(map[string]any)
	src, ok2 := next.(map[string]any)
	if !ok || !ok2 {
		return next
	}
	for k, v := range src {
		if prev, exists := dst[k]; exists {
			v = mergeDuplicate(prev, v)
		}
		dst[k] = v
	}
	return dst
}
