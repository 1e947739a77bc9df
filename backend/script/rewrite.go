package script

import "go.starlark.net/syntax"

// The step limit does not bound memory: "x" * (1 << 29) is one step. So before a
// script is compiled, every expression that can build a large value in one step is
// rewritten into a call of a checking builtin that refuses to build a value over the
// size limits and charges what it builds to the script's memory budget:
//
//	a + b, a * b, a % b     ->  _mt_add(a, b), _mt_mul(a, b), _mt_mod(a, b)
//	x += y (also *=, %=)    ->  x = _mt_iadd(x, y)   (a list is still extended in place)
//	s.join(l), s.replace(..), s.split(..), ... -> _mt_method(s, "join", l), ...
//	x[a:b]                  ->  _mt_sized(x[a:b])
//
// Builtins that format or copy (str, repr, print, list, sorted, ...) are replaced
// by checking versions too (bounds.go), and a heap watch is the backstop.
//
// The names start with _mt_, which a script cannot declare (see checkNames).

// Names of the checking builtins.
const (
	fnAdd    = "_mt_add"
	fnMul    = "_mt_mul"
	fnMod    = "_mt_mod"
	fnIAdd   = "_mt_iadd"
	fnIMul   = "_mt_imul"
	fnIMod   = "_mt_imod"
	fnMethod = "_mt_method"
)

// guardedMethods are the string methods whose result can be much larger than their
// receiver and arguments together (join, replace, format: checked before they run),
// or a list far larger in memory than the string it comes from (checked after).
var guardedMethods = map[string]bool{
	"join": true, "replace": true, "format": true,
	"split": true, "rsplit": true, "splitlines": true,
}

// rewriteFile rewrites every statement of f in place.
func rewriteFile(f *syntax.File) {
	for i, s := range f.Stmts {
		f.Stmts[i] = rewriteStmt(s)
	}
}

func rewriteStmts(ss []syntax.Stmt) {
	for i, s := range ss {
		ss[i] = rewriteStmt(s)
	}
}

func rewriteStmt(s syntax.Stmt) syntax.Stmt {
	switch s := s.(type) {
	case *syntax.AssignStmt:
		s.RHS = rewriteExpr(s.RHS)
		s.LHS = rewriteTargets(s.LHS)
		fn := map[syntax.Token]string{syntax.PLUS_EQ: fnIAdd, syntax.STAR_EQ: fnIMul, syntax.PERCENT_EQ: fnIMod}[s.Op]
		if fn != "" {
			s.RHS = call(fn, s.OpPos, s.LHS, s.RHS)
			s.Op = syntax.EQ
		}
	case *syntax.ExprStmt:
		s.X = rewriteExpr(s.X)
	case *syntax.IfStmt:
		s.Cond = rewriteExpr(s.Cond)
		rewriteStmts(s.True)
		rewriteStmts(s.False)
	case *syntax.ForStmt:
		s.X = rewriteExpr(s.X)
		s.Vars = rewriteTargets(s.Vars)
		rewriteStmts(s.Body)
	case *syntax.WhileStmt:
		s.Cond = rewriteExpr(s.Cond)
		rewriteStmts(s.Body)
	case *syntax.DefStmt:
		for i, p := range s.Params {
			s.Params[i] = rewriteParam(p)
		}
		rewriteStmts(s.Body)
	case *syntax.ReturnStmt:
		if s.Result != nil {
			s.Result = rewriteExpr(s.Result)
		}
	}
	return s
}

// rewriteTargets rewrites the expressions inside an assignment target (the index of
// a[i + 1]) but never the target itself.
func rewriteTargets(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.IndexExpr:
		e.X, e.Y = rewriteExpr(e.X), rewriteExpr(e.Y)
	case *syntax.DotExpr:
		e.X = rewriteExpr(e.X)
	case *syntax.TupleExpr:
		for i, x := range e.List {
			e.List[i] = rewriteTargets(x)
		}
	case *syntax.ListExpr:
		for i, x := range e.List {
			e.List[i] = rewriteTargets(x)
		}
	case *syntax.ParenExpr:
		e.X = rewriteTargets(e.X)
	}
	return e
}

// rewriteParam rewrites a parameter's default value.
func rewriteParam(p syntax.Expr) syntax.Expr {
	if b, ok := p.(*syntax.BinaryExpr); ok && b.Op == syntax.EQ {
		b.Y = rewriteExpr(b.Y)
	}
	return p
}

func rewriteExprs(es []syntax.Expr) {
	for i, e := range es {
		es[i] = rewriteExpr(e)
	}
}

func rewriteExpr(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.BinaryExpr:
		e.X, e.Y = rewriteExpr(e.X), rewriteExpr(e.Y)
		if fn := map[syntax.Token]string{syntax.PLUS: fnAdd, syntax.STAR: fnMul, syntax.PERCENT: fnMod}[e.Op]; fn != "" {
			return call(fn, e.OpPos, e.X, e.Y)
		}
	case *syntax.UnaryExpr:
		if e.X != nil {
			e.X = rewriteExpr(e.X)
		}
	case *syntax.CallExpr:
		return rewriteCall(e)
	case *syntax.DotExpr:
		e.X = rewriteExpr(e.X)
	case *syntax.IndexExpr:
		e.X, e.Y = rewriteExpr(e.X), rewriteExpr(e.Y)
	case *syntax.SliceExpr:
		e.X = rewriteExpr(e.X)
		for _, p := range []*syntax.Expr{&e.Lo, &e.Hi, &e.Step} {
			if *p != nil {
				*p = rewriteExpr(*p)
			}
		}
		return sized(e)
	case *syntax.ListExpr:
		rewriteExprs(e.List)
	case *syntax.TupleExpr:
		rewriteExprs(e.List)
	case *syntax.DictExpr:
		for _, x := range e.List {
			d := x.(*syntax.DictEntry)
			d.Key, d.Value = rewriteExpr(d.Key), rewriteExpr(d.Value)
		}
	case *syntax.ParenExpr:
		e.X = rewriteExpr(e.X)
	case *syntax.CondExpr:
		e.Cond, e.True, e.False = rewriteExpr(e.Cond), rewriteExpr(e.True), rewriteExpr(e.False)
	case *syntax.Comprehension:
		e.Body = rewriteExpr(e.Body)
		for _, c := range e.Clauses {
			switch c := c.(type) {
			case *syntax.ForClause:
				c.X = rewriteExpr(c.X)
				c.Vars = rewriteTargets(c.Vars)
			case *syntax.IfClause:
				c.Cond = rewriteExpr(c.Cond)
			}
		}
	case *syntax.LambdaExpr:
		for i, p := range e.Params {
			e.Params[i] = rewriteParam(p)
		}
		e.Body = rewriteExpr(e.Body)
	}
	return e
}

// rewriteCall rewrites the arguments of a call, and a call of a guarded string method
// into _mt_method(receiver, "name", args...).
func rewriteCall(e *syntax.CallExpr) syntax.Expr {
	for i, a := range e.Args {
		switch a := a.(type) {
		case *syntax.BinaryExpr:
			if a.Op == syntax.EQ { // name=value
				a.Y = rewriteExpr(a.Y)
				continue
			}
		case *syntax.UnaryExpr:
			if a.Op == syntax.STAR || a.Op == syntax.STARSTAR {
				a.X = rewriteExpr(a.X)
				continue
			}
		}
		e.Args[i] = rewriteExpr(a)
	}
	if d, ok := e.Fn.(*syntax.DotExpr); ok && guardedMethods[d.Name.Name] {
		name := &syntax.Literal{Token: syntax.STRING, TokenPos: d.NamePos, Raw: `"` + d.Name.Name + `"`, Value: d.Name.Name}
		e.Args = append([]syntax.Expr{rewriteExpr(d.X), name}, e.Args...)
		e.Fn = &syntax.Ident{NamePos: d.NamePos, Name: fnMethod}
		return e
	}
	e.Fn = rewriteExpr(e.Fn)
	return e
}

// call builds fn(args...) at pos.
func call(fn string, pos syntax.Position, args ...syntax.Expr) syntax.Expr {
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: pos, Name: fn}, Lparen: pos, Args: args, Rparen: pos}
}
