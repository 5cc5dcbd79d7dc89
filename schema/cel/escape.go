package cel

import "strings"

// celReserved are CEL's reserved words: a property with one of these names
// is visible to rules as __name__ (self.__namespace__), and, as in
// kube-apiserver 1.31 and later, also by its own name (self.namespace).
var celReserved = map[string]bool{
	"true": true, "false": true, "null": true, "in": true,
	"as": true, "break": true, "const": true, "continue": true, "else": true,
	"for": true, "function": true, "if": true, "import": true, "let": true,
	"loop": true, "package": true, "namespace": true, "return": true,
	"var": true, "void": true, "while": true,
}

// escapeName is the name a rule uses for a property, and whether it has
// one: reserved words become __word__, and "__", ".", "-" and "/" become
// __underscores__, __dot__, __dash__ and __slash__. Names that start with a
// digit or hold any other character cannot be named by a rule (kube leaves
// such properties out of the rule's type).
func escapeName(name string) (string, bool) {
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return "", false
	}
	if celReserved[name] {
		return "__" + name + "__", true
	}
	plain := true
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '_':
			if i > 0 && name[i-1] == '_' {
				plain = false
			}
		case c == '.', c == '-', c == '/':
			plain = false
		default:
			return "", false
		}
	}
	if plain {
		return name, true
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '_' && i+1 < len(name) && name[i+1] == '_':
			b.WriteString("__underscores__")
			i++
		case c == '.':
			b.WriteString("__dot__")
		case c == '-':
			b.WriteString("__dash__")
		case c == '/':
			b.WriteString("__slash__")
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// unescapeName reverses escapeName; false when name is no escaped form
// (a reserved word escaped inside a longer name, an unknown escape).
func unescapeName(name string) (string, bool) {
	if !strings.Contains(name, "__") {
		return name, true
	}
	var b strings.Builder
	for i := 0; i < len(name); {
		if !strings.HasPrefix(name[i:], "__") {
			b.WriteByte(name[i])
			i++
			continue
		}
		end := strings.Index(name[i+2:], "__")
		if end <= 0 {
			// "__" with no closing pair, or "____": kube's matcher needs a
			// non-empty word between two pairs of underscores.
			b.WriteString(name[i:])
			break
		}
		word := name[i+2 : i+2+end]
		if strings.Contains(word, "_") {
			b.WriteByte(name[i])
			i++
			continue
		}
		switch word {
		case "underscores":
			b.WriteString("__")
		case "dot":
			b.WriteString(".")
		case "dash":
			b.WriteString("-")
		case "slash":
			b.WriteString("/")
		default:
			if !celReserved[word] || len(word)+4 != len(name) {
				return "", false
			}
			b.WriteString(word)
		}
		i += 2 + end + 2
	}
	return b.String(), true
}
