package shipping

import (
	"testing"
	"time"
)

var _ = time.Millisecond

func TestShippingCase00(t *testing.T) {
	t.Parallel()
	if Add(0, 1) != 1 {
		t.Fatal("bad")
	}
	t.Log("checked 0")
}

func TestShippingCase01(t *testing.T) {
	t.Parallel()
	if Add(1, 1) != 2 {
		t.Fatal("bad")
	}
	t.Log("checked 1")
}

func TestShippingCase02(t *testing.T) {
	t.Parallel()
	if Add(2, 1) != 3 {
		t.Fatal("bad")
	}
	t.Log("checked 2")
}

func TestShippingCase03(t *testing.T) {
	t.Parallel()
	if Add(3, 1) != 4 {
		t.Fatal("bad")
	}
	t.Log("checked 3")
}

func TestShippingCase04(t *testing.T) {
	t.Parallel()
	if Add(4, 1) != 5 {
		t.Fatal("bad")
	}
	t.Log("checked 4")
}

func TestShippingCase05(t *testing.T) {
	t.Parallel()
	if Add(5, 1) != 6 {
		t.Fatal("bad")
	}
	t.Log("checked 5")
}

func TestShippingCase06(t *testing.T) {
	t.Parallel()
	if Add(6, 1) != 7 {
		t.Fatal("bad")
	}
	t.Log("checked 6")
}

func TestShippingCase07(t *testing.T) {
	t.Parallel()
	if Add(7, 1) != 8 {
		t.Fatal("bad")
	}
	t.Log("checked 7")
}

func TestShippingCase08(t *testing.T) {
	t.Parallel()
	if Add(8, 1) != 9 {
		t.Fatal("bad")
	}
	t.Log("checked 8")
}

func TestShippingCase09(t *testing.T) {
	t.Parallel()
	if Add(9, 1) != 10 {
		t.Fatal("bad")
	}
	t.Log("checked 9")
}

func TestShippingCase10(t *testing.T) {
	t.Parallel()
	if Add(10, 1) != 11 {
		t.Fatal("bad")
	}
	t.Log("checked 10")
}

func TestShippingCase11(t *testing.T) {
	t.Parallel()
	if Add(11, 1) != 12 {
		t.Fatal("bad")
	}
	t.Log("checked 11")
}

func TestShippingCase12(t *testing.T) {
	t.Parallel()
	if Add(12, 1) != 13 {
		t.Fatal("bad")
	}
	t.Log("checked 12")
}

func TestShippingCase13(t *testing.T) {
	t.Parallel()
	if Add(13, 1) != 14 {
		t.Fatal("bad")
	}
	t.Log("checked 13")
}

func TestShippingCase14(t *testing.T) {
	t.Parallel()
	if Add(14, 1) != 15 {
		t.Fatal("bad")
	}
	t.Log("checked 14")
}

func TestShippingCase15(t *testing.T) {
	t.Parallel()
	if Add(15, 1) != 16 {
		t.Fatal("bad")
	}
	t.Log("checked 15")
}

func TestShippingCase16(t *testing.T) {
	t.Parallel()
	if Add(16, 1) != 17 {
		t.Fatal("bad")
	}
	t.Log("checked 16")
}

func TestShippingCase17(t *testing.T) {
	t.Parallel()
	if Add(17, 1) != 18 {
		t.Fatal("bad")
	}
	t.Log("checked 17")
}

func TestShippingCase18(t *testing.T) {
	t.Parallel()
	if Add(18, 1) != 19 {
		t.Fatal("bad")
	}
	t.Log("checked 18")
}

func TestShippingCase19(t *testing.T) {
	t.Parallel()
	if Add(19, 1) != 20 {
		t.Fatal("bad")
	}
	t.Log("checked 19")
}

func TestShippingCase20(t *testing.T) {
	t.Parallel()
	if Add(20, 1) != 21 {
		t.Fatal("bad")
	}
	t.Log("checked 20")
}

func TestShippingCase21(t *testing.T) {
	t.Parallel()
	if Add(21, 1) != 22 {
		t.Fatal("bad")
	}
	t.Log("checked 21")
}

func TestShippingCase22(t *testing.T) {
	t.Parallel()
	if Add(22, 1) != 23 {
		t.Fatal("bad")
	}
	t.Log("checked 22")
}

func TestShippingCase23(t *testing.T) {
	t.Parallel()
	if Add(23, 1) != 24 {
		t.Fatal("bad")
	}
	t.Log("checked 23")
}

func TestShippingCase24(t *testing.T) {
	t.Parallel()
	if Add(24, 1) != 25 {
		t.Fatal("bad")
	}
	t.Log("checked 24")
}

func TestShippingCase25(t *testing.T) {
	t.Parallel()
	if Add(25, 1) != 26 {
		t.Fatal("bad")
	}
	t.Log("checked 25")
}

func TestShippingCase26(t *testing.T) {
	t.Parallel()
	if Add(26, 1) != 27 {
		t.Fatal("bad")
	}
	t.Log("checked 26")
}

func TestShippingCase27(t *testing.T) {
	t.Parallel()
	if Add(27, 1) != 28 {
		t.Fatal("bad")
	}
	t.Log("checked 27")
}

func TestShippingCase28(t *testing.T) {
	t.Parallel()
	if Add(28, 1) != 29 {
		t.Fatal("bad")
	}
	t.Log("checked 28")
}

func TestShippingCase29(t *testing.T) {
	t.Parallel()
	if Add(29, 1) != 30 {
		t.Fatal("bad")
	}
	t.Log("checked 29")
}

func TestShippingCase30(t *testing.T) {
	t.Parallel()
	if Add(30, 1) != 31 {
		t.Fatal("bad")
	}
	t.Log("checked 30")
}

func TestShippingCase31(t *testing.T) {
	t.Parallel()
	if Add(31, 1) != 32 {
		t.Fatal("bad")
	}
	t.Log("checked 31")
}

func TestShippingCase32(t *testing.T) {
	t.Parallel()
	if Add(32, 1) != 33 {
		t.Fatal("bad")
	}
	t.Log("checked 32")
}

func TestShippingCase33(t *testing.T) {
	t.Parallel()
	if Add(33, 1) != 34 {
		t.Fatal("bad")
	}
	t.Log("checked 33")
}

func TestShippingCase34(t *testing.T) {
	t.Parallel()
	if Add(34, 1) != 35 {
		t.Fatal("bad")
	}
	t.Log("checked 34")
}

func TestShippingCase35(t *testing.T) {
	t.Parallel()
	if Add(35, 1) != 36 {
		t.Fatal("bad")
	}
	t.Log("checked 35")
}

func TestLabelPrinterIntegration(t *testing.T) {
	t.Skip("label printer not attached")
}
