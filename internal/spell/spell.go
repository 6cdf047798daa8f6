// Package spell measures how far apart two names are, for "did you mean"
// suggestions: a mistyped robot, flag, command or directive.
package spell

// Distance returns the optimal string alignment distance of a and b: the
// fewest insertions, deletions and substitutions of a byte and swaps of
// two adjacent bytes that turn a into b, no substring being edited twice
// (a Damerau–Levenshtein variant). It compares bytes as they are; callers
// fold case first when case does not matter.
//
// A limit above 0 bounds the work: when the distance is limit or more,
// Distance returns limit, at once when the lengths alone differ by that
// much. Strings longer than 64 bytes are not compared under a limit
// either. It takes O(len(a)·len(b)) steps.
func Distance(a, b string, limit int) int {
	if limit > 0 && (abs(len(a)-len(b)) >= limit || len(a) > 64) {
		return limit
	}
	// Three rows of the table: i-2, i-1 and i, on the stack for names of
	// up to 64 bytes (the checker calls this for every unknown key).
	var rows [3][65]int
	var prev2, prev, cur []int
	if len(b) < len(rows[0]) {
		prev2, prev, cur = rows[0][:len(b)+1], rows[1][:len(b)+1], rows[2][:len(b)+1]
	} else {
		prev2, prev, cur = make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	}
	for j := range prev {
		prev[j] = j
	}
	prevMin := 0
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		// Every alignment passes through row i or, by a swap, row i-1,
		// and no later cell is less than the cells it comes from: when
		// both rows reach the limit, so does the distance.
		if limit > 0 && min(rowMin, prevMin) >= limit {
			return limit
		}
		prevMin = rowMin
		prev2, prev, cur = prev, cur, prev2
	}
	if d := prev[len(b)]; limit <= 0 || d < limit {
		return d
	}
	return limit
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
