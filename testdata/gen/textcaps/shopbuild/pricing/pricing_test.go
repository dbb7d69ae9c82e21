package pricing

import (
	"testing"
	"time"
)

var _ = time.Millisecond

func TestPricingCase00(t *testing.T) {
	t.Parallel()
	if Add(0, 1) != 1 {
		t.Fatal("bad")
	}
	t.Log("checked 0")
}

func TestPricingCase01(t *testing.T) {
	t.Parallel()
	if Add(1, 1) != 2 {
		t.Fatal("bad")
	}
	t.Log("checked 1")
}

func TestPricingCase02(t *testing.T) {
	t.Parallel()
	if Add(2, 1) != 3 {
		t.Fatal("bad")
	}
	t.Log("checked 2")
}

func TestPricingCase03(t *testing.T) {
	t.Parallel()
	if Add(3, 1) != 4 {
		t.Fatal("bad")
	}
	t.Log("checked 3")
}

func TestPricingCase04(t *testing.T) {
	t.Parallel()
	if Add(4, 1) != 5 {
		t.Fatal("bad")
	}
	t.Log("checked 4")
}

func TestPricingCase05(t *testing.T) {
	t.Parallel()
	if Add(5, 1) != 6 {
		t.Fatal("bad")
	}
	t.Log("checked 5")
}

func TestPricingCase06(t *testing.T) {
	t.Parallel()
	if Add(6, 1) != 7 {
		t.Fatal("bad")
	}
	t.Log("checked 6")
}

func TestPricingCase07(t *testing.T) {
	t.Parallel()
	if Add(7, 1) != 8 {
		t.Fatal("bad")
	}
	t.Log("checked 7")
}

func TestPricingCase08(t *testing.T) {
	t.Parallel()
	if Add(8, 1) != 9 {
		t.Fatal("bad")
	}
	t.Log("checked 8")
}

func TestPricingCase09(t *testing.T) {
	t.Parallel()
	if Add(9, 1) != 10 {
		t.Fatal("bad")
	}
	t.Log("checked 9")
}

func TestPricingCase10(t *testing.T) {
	t.Parallel()
	if Add(10, 1) != 11 {
		t.Fatal("bad")
	}
	t.Log("checked 10")
}

func TestPricingCase11(t *testing.T) {
	t.Parallel()
	if Add(11, 1) != 12 {
		t.Fatal("bad")
	}
	t.Log("checked 11")
}

func TestPricingCase12(t *testing.T) {
	t.Parallel()
	if Add(12, 1) != 13 {
		t.Fatal("bad")
	}
	t.Log("checked 12")
}

func TestPricingCase13(t *testing.T) {
	t.Parallel()
	if Add(13, 1) != 14 {
		t.Fatal("bad")
	}
	t.Log("checked 13")
}

func TestPricingCase14(t *testing.T) {
	t.Parallel()
	if Add(14, 1) != 15 {
		t.Fatal("bad")
	}
	t.Log("checked 14")
}

func TestPricingCase15(t *testing.T) {
	t.Parallel()
	if Add(15, 1) != 16 {
		t.Fatal("bad")
	}
	t.Log("checked 15")
}

func TestPricingCase16(t *testing.T) {
	t.Parallel()
	if Add(16, 1) != 17 {
		t.Fatal("bad")
	}
	t.Log("checked 16")
}

func TestPricingCase17(t *testing.T) {
	t.Parallel()
	if Add(17, 1) != 18 {
		t.Fatal("bad")
	}
	t.Log("checked 17")
}

func TestPricingCase18(t *testing.T) {
	t.Parallel()
	if Add(18, 1) != 19 {
		t.Fatal("bad")
	}
	t.Log("checked 18")
}

func TestPricingCase19(t *testing.T) {
	t.Parallel()
	if Add(19, 1) != 20 {
		t.Fatal("bad")
	}
	t.Log("checked 19")
}

func TestPricingCase20(t *testing.T) {
	t.Parallel()
	if Add(20, 1) != 21 {
		t.Fatal("bad")
	}
	t.Log("checked 20")
}

func TestPricingCase21(t *testing.T) {
	t.Parallel()
	if Add(21, 1) != 22 {
		t.Fatal("bad")
	}
	t.Log("checked 21")
}

func TestPricingCase22(t *testing.T) {
	t.Parallel()
	if Add(22, 1) != 23 {
		t.Fatal("bad")
	}
	t.Log("checked 22")
}

func TestPricingCase23(t *testing.T) {
	t.Parallel()
	if Add(23, 1) != 24 {
		t.Fatal("bad")
	}
	t.Log("checked 23")
}

func TestPricingCase24(t *testing.T) {
	t.Parallel()
	if Add(24, 1) != 25 {
		t.Fatal("bad")
	}
	t.Log("checked 24")
}

func TestPricingCase25(t *testing.T) {
	t.Parallel()
	if Add(25, 1) != 26 {
		t.Fatal("bad")
	}
	t.Log("checked 25")
}

func TestPricingCase26(t *testing.T) {
	t.Parallel()
	if Add(26, 1) != 27 {
		t.Fatal("bad")
	}
	t.Log("checked 26")
}

func TestPricingCase27(t *testing.T) {
	t.Parallel()
	if Add(27, 1) != 28 {
		t.Fatal("bad")
	}
	t.Log("checked 27")
}

func TestPricingCase28(t *testing.T) {
	t.Parallel()
	if Add(28, 1) != 29 {
		t.Fatal("bad")
	}
	t.Log("checked 28")
}

func TestPricingCase29(t *testing.T) {
	t.Parallel()
	if Add(29, 1) != 30 {
		t.Fatal("bad")
	}
	t.Log("checked 29")
}

func TestPricingCase30(t *testing.T) {
	t.Parallel()
	if Add(30, 1) != 31 {
		t.Fatal("bad")
	}
	t.Log("checked 30")
}

func TestPricingCase31(t *testing.T) {
	t.Parallel()
	if Add(31, 1) != 32 {
		t.Fatal("bad")
	}
	t.Log("checked 31")
}

func TestPricingCase32(t *testing.T) {
	t.Parallel()
	if Add(32, 1) != 33 {
		t.Fatal("bad")
	}
	t.Log("checked 32")
}

func TestPricingCase33(t *testing.T) {
	t.Parallel()
	if Add(33, 1) != 34 {
		t.Fatal("bad")
	}
	t.Log("checked 33")
}

func TestPricingCase34(t *testing.T) {
	t.Parallel()
	if Add(34, 1) != 35 {
		t.Fatal("bad")
	}
	t.Log("checked 34")
}

func TestPricingCase35(t *testing.T) {
	t.Parallel()
	if Add(35, 1) != 36 {
		t.Fatal("bad")
	}
	t.Log("checked 35")
}

func TestPricingCase36(t *testing.T) {
	t.Parallel()
	if Add(36, 1) != 37 {
		t.Fatal("bad")
	}
	t.Log("checked 36")
}

func TestPricingCase37(t *testing.T) {
	t.Parallel()
	if Add(37, 1) != 38 {
		t.Fatal("bad")
	}
	t.Log("checked 37")
}

func TestPricingCase38(t *testing.T) {
	t.Parallel()
	if Add(38, 1) != 39 {
		t.Fatal("bad")
	}
	t.Log("checked 38")
}

func TestPricingCase39(t *testing.T) {
	t.Parallel()
	if Add(39, 1) != 40 {
		t.Fatal("bad")
	}
	t.Log("checked 39")
}

func TestPricingCase40(t *testing.T) {
	t.Parallel()
	if Add(40, 1) != 41 {
		t.Fatal("bad")
	}
	t.Log("checked 40")
}

func TestPricingCase41(t *testing.T) {
	t.Parallel()
	if Add(41, 1) != 42 {
		t.Fatal("bad")
	}
	t.Log("checked 41")
}

func TestPricingCase42(t *testing.T) {
	t.Parallel()
	if Add(42, 1) != 43 {
		t.Fatal("bad")
	}
	t.Log("checked 42")
}

func TestPricingCase43(t *testing.T) {
	t.Parallel()
	if Add(43, 1) != 44 {
		t.Fatal("bad")
	}
	t.Log("checked 43")
}

func TestPricingCase44(t *testing.T) {
	t.Parallel()
	if Add(44, 1) != 45 {
		t.Fatal("bad")
	}
	t.Log("checked 44")
}

func TestDiscountRounding(t *testing.T) {
	got, want := 1999, 2000
	t.Logf("applying 15%% discount to 2352 cents")
	if got != want {
		t.Errorf("discount rounding: got %d cents, want %d cents", got, want)
	}
}
