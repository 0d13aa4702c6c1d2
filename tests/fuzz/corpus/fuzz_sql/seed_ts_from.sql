select t, v from table(oni_ts_read_rows('m', 'ts', 1, '2026-01-01 00:00', '2026-01-02 00:00')) as r (t, v) where v > (select count(*) from t1)
