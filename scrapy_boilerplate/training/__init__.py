"""Training the Web2Text networks: automatic block labels, datasets, training, ONNX export.

Only :mod:`scrapy_boilerplate.training.train` needs torch (and onnx for the export), and
imports it inside the functions that train: importing this package costs numpy only.
"""
