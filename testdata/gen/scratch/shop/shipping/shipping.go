package shipping

// Zones lists the shipping zones.
var Zones = []string{"EU", "US", "APAC"}
