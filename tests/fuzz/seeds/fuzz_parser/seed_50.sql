SELECT g, ndv(x), percentile_approx(y, 0.9, 2048), median(z), max_by(a, b), avg_weighted(x, w) FROM t GROUP BY g HAVING median(z) > 1
