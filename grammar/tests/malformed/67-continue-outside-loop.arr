# expect: E0109
# at: continue;
fn f() { continue; }
