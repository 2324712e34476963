"""A tool module that ends its process while importing."""

import os

os._exit(7)
