package games

import "strconv"

// Ordinal writes a place in English, as the doors' words for a result use it: 1st, 2nd, 3rd,
// 4th, … 11th, 12th, 13th, … 21st.
func Ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}
