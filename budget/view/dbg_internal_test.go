package view

import (
	"fmt"
	"os"
	"testing"
)

func TestDbgCands(t *testing.T) {
	f := os.Getenv("DBG_FILE")
	if f == "" {
		t.Skip()
	}
	data, _ := os.ReadFile(f)
	v := buildText(t, data, 4000)
	for _, c := range v.Candidates() {
		txt := c.Text
		if len(txt) > 100 {
			txt = txt[:100]
		}
		fmt.Printf("%d\t%d\t%s\t%d\t%q\n", c.Prio, c.Section, c.Reason, c.Record, txt)
	}
}
