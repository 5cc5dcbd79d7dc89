package cel

import (
	"regexp"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// regexLib is kube's regex library: find and findAll of a regular
// expression (RE2, linear in the input) in a string.
//
//	'abc 123'.find('[0-9]+') == '123'  'a1b2'.findAll('[0-9]') == ['1', '2']
func regexLib() []cel.EnvOption {
	return []cel.EnvOption{
		cel.Function("find", cel.MemberOverload("string_find_string", []*cel.Type{cel.StringType, cel.StringType},
			cel.StringType, cel.BinaryBinding(func(s, re ref.Val) ref.Val { return regexFind(nil, s, re) }))),
		cel.Function("findAll",
			cel.MemberOverload("string_find_all_string", []*cel.Type{cel.StringType, cel.StringType},
				cel.ListType(cel.StringType), cel.BinaryBinding(func(s, re ref.Val) ref.Val {
					return regexFindAll(nil, s, re, types.Int(-1))
				})),
			cel.MemberOverload("string_find_all_string_int", []*cel.Type{cel.StringType, cel.StringType, cel.IntType},
				cel.ListType(cel.StringType), cel.FunctionBinding(func(args ...ref.Val) ref.Val {
					if len(args) != 3 {
						return types.NoSuchOverloadErr()
					}
					return regexFindAll(nil, args[0], args[1], args[2])
				}))),
	}
}

// regexPrograms compiles constant patterns once per program.
func regexPrograms() []cel.ProgramOption {
	optimize := func(fn string) *interpreter.RegexOptimization {
		return &interpreter.RegexOptimization{Function: fn, RegexIndex: 1,
			Factory: func(call interpreter.InterpretableCall, pattern string) (interpreter.InterpretableCall, error) {
				re, err := regexp.Compile(pattern)
				if err != nil {
					return nil, err
				}
				return interpreter.NewCall(call.ID(), call.Function(), call.OverloadID(), call.Args(), func(args ...ref.Val) ref.Val {
					switch {
					case fn == "find" && len(args) == 2:
						return regexFind(re, args[0], args[1])
					case fn == "findAll" && len(args) == 2:
						return regexFindAll(re, args[0], args[1], types.Int(-1))
					case fn == "findAll" && len(args) == 3:
						return regexFindAll(re, args[0], args[1], args[2])
					}
					return types.NoSuchOverloadErr()
				}), nil
			}}
	}
	return []cel.ProgramOption{cel.OptimizeRegex(optimize("find"), optimize("findAll"))}
}

func compileRegex(re *regexp.Regexp, pattern ref.Val) (*regexp.Regexp, ref.Val) {
	if re != nil {
		return re, nil
	}
	p, ok := pattern.Value().(string)
	if !ok {
		return nil, types.MaybeNoSuchOverloadErr(pattern)
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, types.NewErr("Illegal regex: %v", err.Error())
	}
	return re, nil
}

func regexFind(re *regexp.Regexp, str, pattern ref.Val) ref.Val {
	s, ok := str.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(str)
	}
	re, errVal := compileRegex(re, pattern)
	if errVal != nil {
		return errVal
	}
	return types.String(re.FindString(s))
}

func regexFindAll(re *regexp.Regexp, str, pattern, limit ref.Val) ref.Val {
	s, ok := str.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(str)
	}
	n, ok := limit.Value().(int64)
	if !ok {
		return types.MaybeNoSuchOverloadErr(limit)
	}
	re, errVal := compileRegex(re, pattern)
	if errVal != nil {
		return errVal
	}
	return types.NewStringList(types.DefaultTypeAdapter, re.FindAllString(s, int(n)))
}
