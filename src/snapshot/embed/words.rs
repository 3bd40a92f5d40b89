//! The word-embedding table read in place from the mapped `model.safetensors`: 30,522
//! rows of 384 values are half the model (47 MB as f32), and a query needs about ten of
//! them, so rows are copied per forward pass instead of the whole table at load.

use std::sync::Arc;

use candle_core::{DType, Device, Tensor};

use super::mapped::Mapped;
use super::verify::unusable;
use crate::error::Result;

/// The name of the table in the safetensors file.
pub(crate) const NAME: &str = "embeddings.word_embeddings.weight";

pub(crate) struct WordTable {
    map: Arc<Mapped>,
    /// Byte range of the table in the file.
    start: usize,
    rows: usize,
    dim: usize,
    dtype: DType,
}

impl WordTable {
    /// The table in `map`, checked to be `rows` × `dim` of f32 or f16 inside the file.
    pub fn new(map: Arc<Mapped>, rows: usize, dim: usize) -> Result<WordTable> {
        let bytes = map.bytes();
        let st = candle_core::safetensors::SliceSafetensors::new(bytes)
            .map_err(|e| unusable(format!("not a safetensors file: {e}")))?;
        let view = st
            .get(NAME)
            .map_err(|e| unusable(format!("no `{NAME}` tensor: {e}")))?;
        let dtype =
            DType::try_from(view.dtype()).map_err(|e| unusable(format!("`{NAME}`: {e}")))?;
        if view.shape() != [rows, dim] || !matches!(dtype, DType::F32 | DType::F16) {
            return Err(unusable(format!(
                "`{NAME}` is {:?} {dtype:?}, not [{rows}, {dim}] f32 or f16",
                view.shape()
            )));
        }
        let data = view.data();
        // The view is a sub-slice of the map: its address gives its offset in the file.
        let start = data.as_ptr() as usize - bytes.as_ptr() as usize;
        if data.len() != rows * dim * dtype.size_in_bytes() {
            return Err(unusable(format!("`{NAME}` holds {} bytes", data.len())));
        }
        Ok(WordTable {
            map,
            start,
            rows,
            dim,
            dtype,
        })
    }

    /// The rows for `ids` (row-major, `shape` = ids' shape), widened to f32.
    pub fn lookup(
        &self,
        ids: &[u32],
        shape: (usize, usize),
        dev: &Device,
    ) -> candle_core::Result<Tensor> {
        let row = self.dim * self.dtype.size_in_bytes();
        let table = &self.map.bytes()[self.start..self.start + self.rows * row];
        let mut buf = Vec::with_capacity(ids.len() * row);
        for &id in ids {
            let at = id as usize * row;
            let r = table.get(at..at + row).ok_or_else(|| {
                candle_core::Error::Msg(format!("token id {id} is outside the vocabulary"))
            })?;
            buf.extend_from_slice(r);
        }
        Tensor::from_raw_buffer(&buf, self.dtype, &[shape.0, shape.1, self.dim], dev)?
            .to_dtype(DType::F32)
    }
}
