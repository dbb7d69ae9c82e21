module example.com/shopbuild

go 1.22
