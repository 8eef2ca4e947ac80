# expect: E0323
# at: 'float99'
fn f(x: f64[n]) -> bool { return np.issubdtype(x.dtype, 'float99'); }
