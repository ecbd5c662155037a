-- every row of two exports with record ids, too many copies to list
SELECT count() FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND (file_id, sheet, row_number) NOT IN (SELECT (file_id, sheet, row_number) AS h FROM (
  SELECT file_id, sheet, row_number,
  row_number() OVER (PARTITION BY record_key
  ORDER BY indexOf({fileIds:Array(String)}, file_id), sheet, row_number) AS copy
  FROM (SELECT DISTINCT file_id, sheet, row_number, record_key FROM `sift`.record_copies
  WHERE file_id IN {copyFiles:Array(String)}))
  WHERE copy > 1);
-- params: {"fileIds":["scopus","wos-ids"],"copyFiles":["scopus"]}

-- every row of two exports with record ids, copies listed
SELECT count() FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND NOT ((file_id = {lf0:String} AND sheet = {ls0:String} AND row_number IN {lr0:Array(UInt32)}) OR (file_id = {lf1:String} AND sheet = {ls1:String} AND row_number IN {lr1:Array(UInt32)}));
-- params: {"fileIds":["scopus","wos-ids"],"lf0":"scopus","ls0":"Sheet1","lr0":[3,9],"lf1":"wos-ids","ls1":"Sheet1","lr1":[2]}

-- a criterion, one sheet: only matching copies count, too many copies to list
SELECT count() FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND sheet IN {sheets:Array(String)} AND sift_fold_v1(`c_2c00c9aaa72c717a`) LIKE sift_fold_v1({t0:String}) AND (file_id, sheet, row_number) NOT IN (SELECT (file_id, sheet, row_number) AS h FROM (
  SELECT file_id, sheet, row_number,
  row_number() OVER (PARTITION BY record_key
  ORDER BY indexOf({fileIds:Array(String)}, file_id), sheet, row_number) AS copy
  FROM (SELECT DISTINCT file_id, sheet, row_number, record_key FROM `sift`.record_copies
  WHERE file_id IN {copyFiles:Array(String)} AND sheet IN {sheets:Array(String)} AND (file_id, sheet, row_number) IN (
  SELECT file_id, sheet, row_number FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND sheet IN {sheets:Array(String)} AND sift_fold_v1(`c_2c00c9aaa72c717a`) LIKE sift_fold_v1({t0:String}) AND file_id IN {copyFiles:Array(String)})))
  WHERE copy > 1);
-- params: {"fileIds":["scopus","wos-ids"],"sheets":["Sheet1"],"t0":"%kowalski%","copyFiles":["scopus"]}

-- a criterion, one sheet: only matching copies count, copies listed
SELECT count() FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND sheet IN {sheets:Array(String)} AND sift_fold_v1(`c_2c00c9aaa72c717a`) LIKE sift_fold_v1({t0:String}) AND NOT ((file_id = {lf0:String} AND sheet = {ls0:String} AND row_number IN {lr0:Array(UInt32)}) OR (file_id = {lf1:String} AND sheet = {ls1:String} AND row_number IN {lr1:Array(UInt32)}));
-- params: {"fileIds":["scopus","wos-ids"],"sheets":["Sheet1"],"t0":"%kowalski%","lf0":"scopus","ls0":"Sheet1","lr0":[3,9],"lf1":"wos-ids","ls1":"Sheet1","lr1":[2]}

-- on a cluster, too many copies to list
SELECT count() FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND sift_fold_v1(`c_2c00c9aaa72c717a`) LIKE sift_fold_v1({t0:String}) AND (file_id, sheet, row_number) GLOBAL NOT IN (SELECT (file_id, sheet, row_number) AS h FROM (
  SELECT file_id, sheet, row_number,
  row_number() OVER (PARTITION BY record_key
  ORDER BY indexOf({fileIds:Array(String)}, file_id), sheet, row_number) AS copy
  FROM (SELECT DISTINCT file_id, sheet, row_number, record_key FROM `sift`.record_copies
  WHERE file_id IN {copyFiles:Array(String)} AND (file_id, sheet, row_number) GLOBAL IN (
  SELECT file_id, sheet, row_number FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND sift_fold_v1(`c_2c00c9aaa72c717a`) LIKE sift_fold_v1({t0:String}) AND file_id IN {copyFiles:Array(String)})))
  WHERE copy > 1);
-- params: {"fileIds":["scopus","wos-ids"],"t0":"%kowalski%","copyFiles":["scopus"]}

-- every copy asked for, too many copies to list
SELECT count() FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)};
-- params: {"fileIds":["scopus","wos-ids"]}

-- every copy asked for, copies listed
SELECT count() FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)};
-- params: {"fileIds":["scopus","wos-ids"]}

-- no file with a record id, too many copies to list
SELECT count() FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)};
-- params: {"fileIds":["wos"]}

-- no file with a record id, copies listed
SELECT count() FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)};
-- params: {"fileIds":["wos"]}
