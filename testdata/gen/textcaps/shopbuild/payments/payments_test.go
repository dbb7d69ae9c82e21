package payments

import (
	"testing"
	"time"
)

var _ = time.Millisecond

func TestPaymentsCase00(t *testing.T) {
	t.Parallel()
	if Add(0, 1) != 1 {
		t.Fatal("bad")
	}
	t.Log("checked 0")
}

func TestPaymentsCase01(t *testing.T) {
	t.Parallel()
	if Add(1, 1) != 2 {
		t.Fatal("bad")
	}
	t.Log("checked 1")
}

func TestPaymentsCase02(t *testing.T) {
	t.Parallel()
	if Add(2, 1) != 3 {
		t.Fatal("bad")
	}
	t.Log("checked 2")
}

func TestPaymentsCase03(t *testing.T) {
	t.Parallel()
	if Add(3, 1) != 4 {
		t.Fatal("bad")
	}
	t.Log("checked 3")
}

func TestPaymentsCase04(t *testing.T) {
	t.Parallel()
	if Add(4, 1) != 5 {
		t.Fatal("bad")
	}
	t.Log("checked 4")
}

func TestPaymentsCase05(t *testing.T) {
	t.Parallel()
	if Add(5, 1) != 6 {
		t.Fatal("bad")
	}
	t.Log("checked 5")
}

func TestPaymentsCase06(t *testing.T) {
	t.Parallel()
	if Add(6, 1) != 7 {
		t.Fatal("bad")
	}
	t.Log("checked 6")
}

func TestPaymentsCase07(t *testing.T) {
	t.Parallel()
	if Add(7, 1) != 8 {
		t.Fatal("bad")
	}
	t.Log("checked 7")
}

func TestPaymentsCase08(t *testing.T) {
	t.Parallel()
	if Add(8, 1) != 9 {
		t.Fatal("bad")
	}
	t.Log("checked 8")
}

func TestPaymentsCase09(t *testing.T) {
	t.Parallel()
	if Add(9, 1) != 10 {
		t.Fatal("bad")
	}
	t.Log("checked 9")
}

func TestPaymentsCase10(t *testing.T) {
	t.Parallel()
	if Add(10, 1) != 11 {
		t.Fatal("bad")
	}
	t.Log("checked 10")
}

func TestPaymentsCase11(t *testing.T) {
	t.Parallel()
	if Add(11, 1) != 12 {
		t.Fatal("bad")
	}
	t.Log("checked 11")
}

func TestPaymentsCase12(t *testing.T) {
	t.Parallel()
	if Add(12, 1) != 13 {
		t.Fatal("bad")
	}
	t.Log("checked 12")
}

func TestPaymentsCase13(t *testing.T) {
	t.Parallel()
	if Add(13, 1) != 14 {
		t.Fatal("bad")
	}
	t.Log("checked 13")
}

func TestPaymentsCase14(t *testing.T) {
	t.Parallel()
	if Add(14, 1) != 15 {
		t.Fatal("bad")
	}
	t.Log("checked 14")
}

func TestPaymentsCase15(t *testing.T) {
	t.Parallel()
	if Add(15, 1) != 16 {
		t.Fatal("bad")
	}
	t.Log("checked 15")
}

func TestPaymentsCase16(t *testing.T) {
	t.Parallel()
	if Add(16, 1) != 17 {
		t.Fatal("bad")
	}
	t.Log("checked 16")
}

func TestPaymentsCase17(t *testing.T) {
	t.Parallel()
	if Add(17, 1) != 18 {
		t.Fatal("bad")
	}
	t.Log("checked 17")
}

func TestPaymentsCase18(t *testing.T) {
	t.Parallel()
	if Add(18, 1) != 19 {
		t.Fatal("bad")
	}
	t.Log("checked 18")
}

func TestPaymentsCase19(t *testing.T) {
	t.Parallel()
	if Add(19, 1) != 20 {
		t.Fatal("bad")
	}
	t.Log("checked 19")
}

func TestPaymentsCase20(t *testing.T) {
	t.Parallel()
	if Add(20, 1) != 21 {
		t.Fatal("bad")
	}
	t.Log("checked 20")
}

func TestPaymentsCase21(t *testing.T) {
	t.Parallel()
	if Add(21, 1) != 22 {
		t.Fatal("bad")
	}
	t.Log("checked 21")
}

func TestPaymentsCase22(t *testing.T) {
	t.Parallel()
	if Add(22, 1) != 23 {
		t.Fatal("bad")
	}
	t.Log("checked 22")
}

func TestPaymentsCase23(t *testing.T) {
	t.Parallel()
	if Add(23, 1) != 24 {
		t.Fatal("bad")
	}
	t.Log("checked 23")
}

func TestPaymentsCase24(t *testing.T) {
	t.Parallel()
	if Add(24, 1) != 25 {
		t.Fatal("bad")
	}
	t.Log("checked 24")
}

func TestPaymentsCase25(t *testing.T) {
	t.Parallel()
	if Add(25, 1) != 26 {
		t.Fatal("bad")
	}
	t.Log("checked 25")
}

func TestPaymentsCase26(t *testing.T) {
	t.Parallel()
	if Add(26, 1) != 27 {
		t.Fatal("bad")
	}
	t.Log("checked 26")
}

func TestPaymentsCase27(t *testing.T) {
	t.Parallel()
	if Add(27, 1) != 28 {
		t.Fatal("bad")
	}
	t.Log("checked 27")
}

func TestRefundPartial(t *testing.T) {
	for _, c := range []string{"USD", "EUR", "JPY", "GBP"} {
		t.Run("currency="+c, func(t *testing.T) {
			if c == "JPY" {
				t.Fatalf("partial refund of 1050 JPY: amount has 2 decimals, JPY has 0")
			}
		})
	}
}
