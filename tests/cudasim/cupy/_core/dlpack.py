bfloat16 = None  # CuPy without ml_dtypes
