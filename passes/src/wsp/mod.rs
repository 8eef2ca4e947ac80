//! WSP
