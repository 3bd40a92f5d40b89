pub(crate) mod contradiction;
