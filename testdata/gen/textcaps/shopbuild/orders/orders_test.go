package orders

import (
	"testing"
	"time"
)

var _ = time.Millisecond

func TestOrdersCase00(t *testing.T) {
	t.Parallel()
	if Add(0, 1) != 1 {
		t.Fatal("bad")
	}
	t.Log("checked 0")
}

func TestOrdersCase01(t *testing.T) {
	t.Parallel()
	if Add(1, 1) != 2 {
		t.Fatal("bad")
	}
	t.Log("checked 1")
}

func TestOrdersCase02(t *testing.T) {
	t.Parallel()
	if Add(2, 1) != 3 {
		t.Fatal("bad")
	}
	t.Log("checked 2")
}

func TestOrdersCase03(t *testing.T) {
	t.Parallel()
	if Add(3, 1) != 4 {
		t.Fatal("bad")
	}
	t.Log("checked 3")
}

func TestOrdersCase04(t *testing.T) {
	t.Parallel()
	if Add(4, 1) != 5 {
		t.Fatal("bad")
	}
	t.Log("checked 4")
}

func TestOrdersCase05(t *testing.T) {
	t.Parallel()
	if Add(5, 1) != 6 {
		t.Fatal("bad")
	}
	t.Log("checked 5")
}

func TestOrdersCase06(t *testing.T) {
	t.Parallel()
	if Add(6, 1) != 7 {
		t.Fatal("bad")
	}
	t.Log("checked 6")
}

func TestOrdersCase07(t *testing.T) {
	t.Parallel()
	if Add(7, 1) != 8 {
		t.Fatal("bad")
	}
	t.Log("checked 7")
}

func TestOrdersCase08(t *testing.T) {
	t.Parallel()
	if Add(8, 1) != 9 {
		t.Fatal("bad")
	}
	t.Log("checked 8")
}

func TestOrdersCase09(t *testing.T) {
	t.Parallel()
	if Add(9, 1) != 10 {
		t.Fatal("bad")
	}
	t.Log("checked 9")
}

func TestOrdersCase10(t *testing.T) {
	t.Parallel()
	if Add(10, 1) != 11 {
		t.Fatal("bad")
	}
	t.Log("checked 10")
}

func TestOrdersCase11(t *testing.T) {
	t.Parallel()
	if Add(11, 1) != 12 {
		t.Fatal("bad")
	}
	t.Log("checked 11")
}

func TestOrdersCase12(t *testing.T) {
	t.Parallel()
	if Add(12, 1) != 13 {
		t.Fatal("bad")
	}
	t.Log("checked 12")
}

func TestOrdersCase13(t *testing.T) {
	t.Parallel()
	if Add(13, 1) != 14 {
		t.Fatal("bad")
	}
	t.Log("checked 13")
}

func TestOrdersCase14(t *testing.T) {
	t.Parallel()
	if Add(14, 1) != 15 {
		t.Fatal("bad")
	}
	t.Log("checked 14")
}

func TestOrdersCase15(t *testing.T) {
	t.Parallel()
	if Add(15, 1) != 16 {
		t.Fatal("bad")
	}
	t.Log("checked 15")
}

func TestOrdersCase16(t *testing.T) {
	t.Parallel()
	if Add(16, 1) != 17 {
		t.Fatal("bad")
	}
	t.Log("checked 16")
}

func TestOrdersCase17(t *testing.T) {
	t.Parallel()
	if Add(17, 1) != 18 {
		t.Fatal("bad")
	}
	t.Log("checked 17")
}

func TestOrdersCase18(t *testing.T) {
	t.Parallel()
	if Add(18, 1) != 19 {
		t.Fatal("bad")
	}
	t.Log("checked 18")
}

func TestOrdersCase19(t *testing.T) {
	t.Parallel()
	if Add(19, 1) != 20 {
		t.Fatal("bad")
	}
	t.Log("checked 19")
}

func TestOrdersCase20(t *testing.T) {
	t.Parallel()
	if Add(20, 1) != 21 {
		t.Fatal("bad")
	}
	t.Log("checked 20")
}

func TestOrdersCase21(t *testing.T) {
	t.Parallel()
	if Add(21, 1) != 22 {
		t.Fatal("bad")
	}
	t.Log("checked 21")
}

func TestOrdersCase22(t *testing.T) {
	t.Parallel()
	if Add(22, 1) != 23 {
		t.Fatal("bad")
	}
	t.Log("checked 22")
}

func TestOrdersCase23(t *testing.T) {
	t.Parallel()
	if Add(23, 1) != 24 {
		t.Fatal("bad")
	}
	t.Log("checked 23")
}

func TestOrdersCase24(t *testing.T) {
	t.Parallel()
	if Add(24, 1) != 25 {
		t.Fatal("bad")
	}
	t.Log("checked 24")
}

func TestOrdersCase25(t *testing.T) {
	t.Parallel()
	if Add(25, 1) != 26 {
		t.Fatal("bad")
	}
	t.Log("checked 25")
}

func TestOrdersCase26(t *testing.T) {
	t.Parallel()
	if Add(26, 1) != 27 {
		t.Fatal("bad")
	}
	t.Log("checked 26")
}

func TestOrdersCase27(t *testing.T) {
	t.Parallel()
	if Add(27, 1) != 28 {
		t.Fatal("bad")
	}
	t.Log("checked 27")
}

func TestOrdersCase28(t *testing.T) {
	t.Parallel()
	if Add(28, 1) != 29 {
		t.Fatal("bad")
	}
	t.Log("checked 28")
}

func TestOrdersCase29(t *testing.T) {
	t.Parallel()
	if Add(29, 1) != 30 {
		t.Fatal("bad")
	}
	t.Log("checked 29")
}

func TestOrdersCase30(t *testing.T) {
	t.Parallel()
	if Add(30, 1) != 31 {
		t.Fatal("bad")
	}
	t.Log("checked 30")
}

func TestOrdersCase31(t *testing.T) {
	t.Parallel()
	if Add(31, 1) != 32 {
		t.Fatal("bad")
	}
	t.Log("checked 31")
}

func TestOrdersCase32(t *testing.T) {
	t.Parallel()
	if Add(32, 1) != 33 {
		t.Fatal("bad")
	}
	t.Log("checked 32")
}

func TestOrdersCase33(t *testing.T) {
	t.Parallel()
	if Add(33, 1) != 34 {
		t.Fatal("bad")
	}
	t.Log("checked 33")
}

func TestOrdersCase34(t *testing.T) {
	t.Parallel()
	if Add(34, 1) != 35 {
		t.Fatal("bad")
	}
	t.Log("checked 34")
}

func TestOrdersCase35(t *testing.T) {
	t.Parallel()
	if Add(35, 1) != 36 {
		t.Fatal("bad")
	}
	t.Log("checked 35")
}

func TestOrdersCase36(t *testing.T) {
	t.Parallel()
	if Add(36, 1) != 37 {
		t.Fatal("bad")
	}
	t.Log("checked 36")
}

func TestOrdersCase37(t *testing.T) {
	t.Parallel()
	if Add(37, 1) != 38 {
		t.Fatal("bad")
	}
	t.Log("checked 37")
}

func TestOrdersCase38(t *testing.T) {
	t.Parallel()
	if Add(38, 1) != 39 {
		t.Fatal("bad")
	}
	t.Log("checked 38")
}

func TestOrdersCase39(t *testing.T) {
	t.Parallel()
	if Add(39, 1) != 40 {
		t.Fatal("bad")
	}
	t.Log("checked 39")
}

func TestOrdersCase40(t *testing.T) {
	t.Parallel()
	if Add(40, 1) != 41 {
		t.Fatal("bad")
	}
	t.Log("checked 40")
}

func TestOrdersCase41(t *testing.T) {
	t.Parallel()
	if Add(41, 1) != 42 {
		t.Fatal("bad")
	}
	t.Log("checked 41")
}

func TestCancelAfterShip(t *testing.T) {
	t.Errorf("order ord-4471 cancelled after shipment: state = %q, want %q", "cancelled", "shipped")
	t.Errorf("refund issued for shipped order ord-4471")
}
