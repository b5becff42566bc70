"""The contract with other tools: the JSON Schemas of the build's files (`schema`), the light
reader of a build (`reader`, standard library only) and the pytest plugin (`pytest_plugin`).
Importing this package imports nothing else: `extract.contract.reader` stays light."""
