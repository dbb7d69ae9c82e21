module nmprog

go 1.22
