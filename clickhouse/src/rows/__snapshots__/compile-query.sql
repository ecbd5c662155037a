-- every row of the files
SELECT file_id, sheet, row_number, `c_2c00c9aaa72c717a`, `c_5780cbab63e0614e`, `c_719ba5025cc6691e` FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)};
-- params: {"fileIds":["wos"],"useExtra":false}

-- a word the index holds whole
SELECT file_id, sheet, row_number, `c_2c00c9aaa72c717a`, `c_5780cbab63e0614e`, `c_719ba5025cc6691e` FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND sift_fold_v1(`c_2c00c9aaa72c717a`) LIKE sift_fold_v1({t0:String});
-- params: {"fileIds":["wos"],"t0":"%kowalski%","useExtra":false}

-- a short term the index cannot serve
SELECT file_id, sheet, row_number, `c_2c00c9aaa72c717a`, `c_5780cbab63e0614e`, `c_719ba5025cc6691e` FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND sift_fold_v1(`c_2c00c9aaa72c717a`) LIKE sift_fold_v1({t0:String});
-- params: {"fileIds":["wos"],"t0":"%mu%","useExtra":false}

-- a surname and an initial (a fragment read first)
SELECT file_id, sheet, row_number, `c_2c00c9aaa72c717a`, `c_5780cbab63e0614e`, `c_719ba5025cc6691e` FROM `sift`.rows PREWHERE file_id IN {fileIds:Array(String)} AND sift_fold_v1(`c_2c00c9aaa72c717a`) LIKE sift_fold_v1({t0f0:String}) WHERE sift_fold_v1(`c_2c00c9aaa72c717a`) LIKE sift_fold_v1({t0:String});
-- params: {"fileIds":["wos"],"t0":"%kowalski, a%","t0f0":"%kowalski%","useExtra":false}

-- accents must match
SELECT file_id, sheet, row_number, `c_2c00c9aaa72c717a`, `c_5780cbab63e0614e`, `c_719ba5025cc6691e` FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND (`c_2c00c9aaa72c717a` ILIKE {t0:String} AND sift_fold_v1(`c_2c00c9aaa72c717a`) LIKE sift_fold_v1({t0:String}));
-- params: {"fileIds":["wos"],"t0":"%müller%","useExtra":false}

-- two criteria, one sheet
SELECT file_id, sheet, row_number, `c_2c00c9aaa72c717a`, `c_5780cbab63e0614e`, `c_719ba5025cc6691e` FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND sheet IN {sheets:Array(String)} AND sift_fold_v1(`c_2c00c9aaa72c717a`) LIKE sift_fold_v1({t0:String}) AND sift_fold_v1(`c_719ba5025cc6691e`) LIKE sift_fold_v1({t1:String});
-- params: {"fileIds":["wos"],"sheets":["Sheet1"],"t0":"%smith%","t1":"%2023%","useExtra":false}

-- a header in two files and the overflow map
SELECT file_id, sheet, row_number, `c_2c00c9aaa72c717a`, `c_5780cbab63e0614e`, `c_719ba5025cc6691e`, `c_33f2b7511edfe200`, extra FROM `sift`.rows PREWHERE file_id IN {fileIds:Array(String)} AND sift_fold_v1(extra[{h0:String}]) LIKE sift_fold_v1({t0f0:String}) AND sift_fold_v1(extra[{h0:String}]) LIKE sift_fold_v1({t0f1:String}) WHERE sift_fold_v1(extra[{h0:String}]) LIKE sift_fold_v1({t0:String});
-- params: {"fileIds":["wos","list"],"h0":"Notes","t0":"%call back%","t0f0":"%call%","t0f1":"%back%","useExtra":true}

-- a header no file has
-- (nothing to read)

-- a whole value (a facet clicked)
SELECT file_id, sheet, row_number, `c_2c00c9aaa72c717a`, `c_5780cbab63e0614e`, `c_719ba5025cc6691e` FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND sift_fold_v1(`c_2c00c9aaa72c717a`) = sift_fold_v1({t0:String}) AND sift_fold_v1(`c_719ba5025cc6691e`) LIKE sift_fold_v1({t1:String});
-- params: {"fileIds":["wos"],"t0":"Smith, J","t1":"%2023%","useExtra":false}

-- a whole value, accents must match
SELECT file_id, sheet, row_number, `c_2c00c9aaa72c717a`, `c_5780cbab63e0614e`, `c_719ba5025cc6691e` FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND (lowerUTF8(`c_2c00c9aaa72c717a`) = lowerUTF8({t0:String}) AND sift_fold_v1(`c_2c00c9aaa72c717a`) = sift_fold_v1({t0:String}));
-- params: {"fileIds":["wos"],"t0":"Müller, H","useExtra":false}

-- only some headers in the answer
SELECT file_id, sheet, row_number, `c_5780cbab63e0614e` FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND sift_fold_v1(`c_2c00c9aaa72c717a`) LIKE sift_fold_v1({t0:String});
-- params: {"fileIds":["wos"],"t0":"%smith%","useExtra":false}
