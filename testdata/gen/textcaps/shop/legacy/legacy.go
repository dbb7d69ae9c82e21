package legacy

func Old() int { return undefinedThing }
