package artifact

import "github.com/toolcompact/compact/budget"

func budgetHandle(s string) budget.Handle { return budget.Handle(s) }
