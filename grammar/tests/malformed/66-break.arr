# expect: E0109
# at: break;
fn f() { while true { break; } }
