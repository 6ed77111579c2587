SELECT position('a' IN concat(b, 'x')), position(1 IN (SELECT 2)), date_trunc(ts, 'week'), format(x, 2), months_add(d, -1) FROM t
